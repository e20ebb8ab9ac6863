import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  NAME_MAX_LENGTH,
  NAME_REQUIRED_MESSAGE,
  SubscriptionResponse,
  UpdateProfileRequest,
  UserProfile,
  errorResponses,
} from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { HttpError } from '../../services/http-error.js';

function userNotFound(): HttpError {
  return new HttpError(404, 'User not found', 'not_found');
}

/** The signed-in user's own profile and subscription; there is no way to name another user's. */
export async function userRoutes(appBase: FastifyInstance, _deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, billing } = app.services;

  app.get(
    '/api/users/profile',
    { schema: { response: { 200: UserProfile, ...errorResponses([401, 404]) } } },
    async (request): Promise<UserProfile> => {
      const profile = await accounts.profile(request.user.id);
      if (!profile) throw userNotFound();
      return profile;
    },
  );

  app.patch(
    '/api/users/profile',
    { schema: { body: UpdateProfileRequest, response: { 200: UserProfile, ...errorResponses([400, 401, 404]) } } },
    async (request): Promise<UserProfile> => {
      const name = (request.body?.name ?? '').trim();
      if (!name) throw new HttpError(400, NAME_REQUIRED_MESSAGE, 'name_required');
      if (name.length > NAME_MAX_LENGTH)
        throw new HttpError(400, `Name must be at most ${NAME_MAX_LENGTH} characters`, 'name_too_long');
      // Email is read-only here (docs/product-spec.md §5): it belongs to the authentication provider, so any email sent is ignored.
      const profile = await accounts.rename(request.user, name);
      if (!profile) throw userNotFound();
      return profile;
    },
  );

  app.get(
    '/api/users/subscription',
    { schema: { response: { 200: SubscriptionResponse, ...errorResponses([401]) } } },
    async (request): Promise<SubscriptionResponse> => billing.subscription(request.user.id),
  );
}
