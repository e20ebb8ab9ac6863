import type { FastifyInstance } from 'fastify';
import type { RegisterRequest, RegisterResponse, VerifyTokenRequest, VerifyTokenResponse } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';

export async function authRoutes(app: FastifyInstance, _deps: AppDeps): Promise<void> {
  app.post<{ Body: RegisterRequest }>(
    '/api/auth/register',
    {
      onRequest: requireUser,
      schema: {
        body: {
          type: 'object',
          required: ['email', 'name', 'clerkId'],
          properties: {
            email: { type: 'string', format: 'email', maxLength: 320 },
            name: { type: 'string', maxLength: 200 },
            clerkId: { type: 'string', minLength: 1, maxLength: 200 },
          },
        },
      },
    },
    async (request, reply): Promise<RegisterResponse | undefined> => {
      // Registering someone else's Clerk id would hand this caller their account.
      if (request.body.clerkId !== request.user.clerkId) {
        return reply.status(403).send(errorBody(403, 'You can only register your own account', 'forbidden'));
      }
      const user = await app.sessionAuth.users.upsertProfile({
        clerkId: request.user.clerkId,
        email: request.body.email.trim(),
        name: request.body.name.trim(),
      });
      app.sessionAuth.knownUsers.delete(request.user.clerkId);
      return { token: bearerToken(request.headers.authorization), valid: true, userId: user.id };
    },
  );

  app.post<{ Body: VerifyTokenRequest }>(
    '/api/auth/verify-token',
    {
      schema: {
        body: { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 8192 } } },
      },
    },
    async (request): Promise<VerifyTokenResponse> => {
      const session = await app.sessionAuth.verifySessionToken(request.body.token);
      if (!session) return { valid: false };
      // A verified token of someone never registered is not valid yet: the web app then registers them.
      const user = await app.sessionAuth.users.findByClerkId(session.clerkId);
      return { valid: Boolean(user?.email) };
    },
  );
}

function bearerToken(header: string | undefined): string {
  return header?.replace(/^Bearer\s+/i, '') ?? '';
}
