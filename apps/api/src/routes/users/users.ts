import type { FastifyInstance } from 'fastify';
import { NAME_REQUIRED_MESSAGE, type SubscriptionResponse, type UpdateProfileRequest, type UserProfile } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { subscriptionResponse } from '../../services/billing.js';

const NAME_MAX_LENGTH = 200;

/** The signed-in user's own profile and subscription; there is no way to name another user's. */
export async function userRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.addHook('onRequest', requireUser);

  app.get('/api/users/profile', async (request, reply): Promise<UserProfile | undefined> => {
    const row = await app.sessionAuth.users.findById(request.user.id);
    if (!row) return reply.status(404).send(errorBody(404, 'User not found', 'not_found'));
    return { id: row.id, name: row.name, email: row.email };
  });

  app.patch<{ Body: Partial<UpdateProfileRequest> & { email?: unknown } }>(
    '/api/users/profile',
    { schema: { body: { type: 'object', properties: { name: { type: 'string' } } } } },
    async (request, reply): Promise<UserProfile | undefined> => {
      const name = (request.body?.name ?? '').trim();
      if (!name) return reply.status(400).send(errorBody(400, NAME_REQUIRED_MESSAGE, 'name_required'));
      if (name.length > NAME_MAX_LENGTH) {
        return reply.status(400).send(errorBody(400, `Name must be at most ${NAME_MAX_LENGTH} characters`, 'name_too_long'));
      }
      // Email is read-only here (spec §5): it belongs to the authentication provider, so any email sent is ignored.
      const row = await app.sessionAuth.users.updateName(request.user.id, name);
      app.sessionAuth.knownUsers.delete(request.user.clerkId);
      if (!row) return reply.status(404).send(errorBody(404, 'User not found', 'not_found'));
      return { id: row.id, name: row.name, email: row.email };
    },
  );

  app.get('/api/users/subscription', async (request): Promise<SubscriptionResponse> => subscriptionResponse(deps, request.user.id));
}
