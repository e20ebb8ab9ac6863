import { verifyToken } from '@clerk/backend';
import { clerkPlugin, getAuth } from '@clerk/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@prodshot/config';
import type { AppDeps } from '../deps.js';
import { loadOrCreateSessionKey, type SessionSigningKey } from '../services/session-tokens.js';
import { errorBody } from './error-handler.js';
import { bindLogContext } from './log-context.js';

/** The authenticated user of a request, set by `requireUser`. */
export interface AuthUser {
  /** users.id (uuid): what every row of ours refers to. */
  id: string;
  clerkId: string;
  email: string;
  name: string;
}

export interface SessionAuth {
  /** Verifies a bearer token outside a Fastify request (the socket.io handshake) with the same keys and checks. */
  /** The token's user and when it stops being valid (ms since epoch), or null for a token refused. */
  verifySessionToken(token: string): Promise<{ clerkId: string; expiresAt: number } | null>;
  /** Embedded mode only: the key the dev sign-in mints tokens with. */
  embeddedSigner: { key: SessionSigningKey; issuer: string; authorizedParty: string } | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser;
  }
  interface FastifyInstance {
    sessionAuth: SessionAuth;
  }
}

interface ClerkKeys {
  secretKey: string;
  publishableKey: string;
  jwtKey: string | undefined;
  authorizedParties: string[];
}

/**
 * The embedded mode runs Clerk's own verification offline: a local public key as `jwtKey` and
 * syntactically valid placeholder keys. The publishable key is a live-instance one on purpose:
 * a development-instance key makes Clerk answer browser page loads with a dev-browser redirect
 * to a Frontend API that does not exist here.
 */
const EMBEDDED_PUBLISHABLE_KEY = `pk_live_${Buffer.from('clerk.prodshot.invalid$').toString('base64')}`;
const EMBEDDED_SECRET_KEY = 'sk_live_prodshot_embedded_no_network';

async function clerkKeys(config: Config): Promise<{ keys: ClerkKeys; signer: SessionAuth['embeddedSigner'] }> {
  if (config.auth.mode === 'clerk') {
    const { secretKey, publishableKey, jwtKey, authorizedParties } = config.auth;
    return { keys: { secretKey, publishableKey, jwtKey, authorizedParties }, signer: undefined };
  }
  const key = await loadOrCreateSessionKey(config.auth.keyDir);
  const authorizedParty = new URL(config.http.publicUrl).origin;
  return {
    keys: { secretKey: EMBEDDED_SECRET_KEY, publishableKey: EMBEDDED_PUBLISHABLE_KEY, jwtKey: key.publicKeyPem, authorizedParties: [authorizedParty] },
    signer: { key, issuer: `${authorizedParty}/api/dev`, authorizedParty },
  };
}

/**
 * Registers @clerk/fastify on the root instance, so every route sees `getAuth(request)`, and
 * decorates the instance with `sessionAuth`. Call before registering any route.
 */
export async function registerAuth(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { keys, signer } = await clerkKeys(deps.config);
  await app.register(clerkPlugin, { ...keys, hookName: 'onRequest' });
  const sessionAuth: SessionAuth = {
    verifySessionToken: async (token) => {
      try {
        const claims = await verifyToken(token, keys);
        return typeof claims.sub === 'string' ? { clerkId: claims.sub, expiresAt: claims.exp * 1000 } : null;
      } catch {
        return null;
      }
    },
    embeddedSigner: signer,
  };
  app.decorate('sessionAuth', sessionAuth);
  app.decorateRequest('user', null as unknown as AuthUser);
}

function claimString(claims: Record<string, unknown> | null | undefined, name: string): string | undefined {
  const value = claims?.[name];
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * onRequest hook of every protected route (before body parsing and validation, so a signed-out call is a 401 whatever it sent): 401 unless @clerk/fastify found a valid session token,
 * then `request.user` is the user's row, created on first sight (through `app.services.accounts`).
 */
export async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const auth = getAuth(request);
  if (!auth.isAuthenticated || !auth.userId) {
    return reply.status(401).send(errorBody(401, 'Unauthorized', 'unauthorized'));
  }
  const claims = auth.sessionClaims as unknown as Record<string, unknown>;
  request.user = await request.server.services.accounts.signedIn(auth.userId, {
    email: claimString(claims, 'email'),
    name: claimString(claims, 'name'),
  });
  bindLogContext(request, reply, { userId: request.user.id });
}
