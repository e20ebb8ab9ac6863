import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  EMAIL_NOT_VERIFIED_MESSAGE,
  RegisterRequest,
  RegisterResponse,
  VerifyTokenRequest,
  VerifyTokenResponse,
  errorResponses,
} from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import type { AuthUser } from '../../plugins/auth.js';
import { ClerkUsers } from '../../services/accounts/clerk-users.js';
import { HttpError } from '../../services/http-error.js';

export async function authRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts } = app.services;
  const auth = deps.config.auth;
  const clerkUsers = auth.mode === 'clerk' ? new ClerkUsers(auth) : undefined;

  /**
   * With Clerk, the account's email is the primary address Clerk verified, never the one the request
   * states (it becomes Stripe's customer_email). The embedded sign-in has no one to ask: anyone signs
   * in as any email there, which is why it is refused beyond loopback.
   */
  async function emailOf(user: AuthUser, stated: string): Promise<string> {
    if (!clerkUsers) return stated.trim();
    const verified = await clerkUsers.verifiedPrimaryEmail(user.clerkId);
    if (!verified) throw new HttpError(403, EMAIL_NOT_VERIFIED_MESSAGE, 'email_not_verified');
    return verified;
  }

  app.post(
    '/api/auth/register',
    {
      schema: { body: RegisterRequest, response: { 200: RegisterResponse, ...errorResponses([400, 401, 403, 503]) } },
    },
    async (request): Promise<RegisterResponse> => {
      // Registering someone else's Clerk id would hand this caller their account.
      if (request.body.clerkId !== request.user.clerkId)
        throw new HttpError(403, 'You can only register your own account', 'forbidden');
      const user = await accounts.register({
        clerkId: request.user.clerkId,
        email: await emailOf(request.user, request.body.email),
        name: request.body.name.trim(),
      });
      return { token: bearerToken(request.headers.authorization), valid: true, userId: user.id };
    },
  );

  app.post(
    '/api/auth/verify-token',
    { schema: { body: VerifyTokenRequest, response: { 200: VerifyTokenResponse, ...errorResponses([400]) } } },
    async (request): Promise<VerifyTokenResponse> => {
      const session = await app.sessionAuth.verifySessionToken(request.body.token);
      if (!session) return { valid: false };
      // A verified token of someone never registered is not valid yet: the web app then registers them.
      return { valid: await accounts.isRegistered(session.clerkId) };
    },
  );
}

function bearerToken(header: string | undefined): string {
  return header?.replace(/^Bearer\s+/i, '') ?? '';
}
