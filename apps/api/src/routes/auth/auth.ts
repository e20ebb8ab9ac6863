import type { FastifyInstance } from 'fastify';
import { RegisterRequest, RegisterResponse, VerifyTokenRequest, VerifyTokenResponse, errorResponses } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../services/http-error.js';

export async function authRoutes(app: FastifyInstance, _deps: AppDeps): Promise<void> {
  const { accounts } = app.services;

  app.post<{ Body: RegisterRequest }>(
    '/api/auth/register',
    { onRequest: requireUser, schema: { body: RegisterRequest, response: { 200: RegisterResponse, ...errorResponses([400, 401, 403]) } } },
    async (request): Promise<RegisterResponse> => {
      // Registering someone else's Clerk id would hand this caller their account.
      if (request.body.clerkId !== request.user.clerkId) throw new HttpError(403, 'You can only register your own account', 'forbidden');
      const user = await accounts.register({
        clerkId: request.user.clerkId,
        email: request.body.email.trim(),
        name: request.body.name.trim(),
      });
      return { token: bearerToken(request.headers.authorization), valid: true, userId: user.id };
    },
  );

  app.post<{ Body: VerifyTokenRequest }>(
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
