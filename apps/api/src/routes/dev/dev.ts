import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DevSignInRequest, DevSignInResponse, errorResponses } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { embeddedSignInGuard } from '../../plugins/loopback-only.js';
import { signSessionToken } from '../../services/accounts/session-tokens.js';

/** Dev sessions cannot be refreshed as Clerk's are, so they last a working week. */
const DEV_TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;

/** The same email signs into the same account across restarts, as it would with Clerk. */
export function embeddedClerkId(email: string): string {
  return `user_${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 27)}`;
}

/** Embedded mode's stand-in for Clerk's hosted sign-in, for loopback clients unless ALLOW_EMBEDDED_AUTH; absent when Clerk is configured. */
export async function devRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const signer = app.sessionAuth.embeddedSigner;
  if (!signer) return;

  app.post(
    '/api/dev/sign-in',
    {
      onRequest: embeddedSignInGuard(deps.config),
      schema: { body: DevSignInRequest, response: { 200: DevSignInResponse, ...errorResponses([400, 403]) } },
    },
    async (request): Promise<DevSignInResponse> => {
      const email = request.body.email.trim().toLowerCase();
      const clerkId = embeddedClerkId(email);
      const user = await app.services.accounts.register({ clerkId, email, name: request.body.name.trim() });
      const token = await signSessionToken(signer.key, {
        clerkId,
        sessionId: `sess_${randomBytes(12).toString('hex')}`,
        issuer: signer.issuer,
        authorizedParty: signer.authorizedParty,
        lifetimeSeconds: DEV_TOKEN_LIFETIME_SECONDS,
      });
      return { token, userId: user.id };
    },
  );
}
