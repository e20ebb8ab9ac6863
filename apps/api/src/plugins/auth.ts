import { verifyToken } from '@clerk/backend';
import { clerkPlugin, getAuth } from '@clerk/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@prodshot/config';
import {
  API_KEY_REFUSED_MESSAGE,
  API_KEY_SESSION_ONLY_MESSAGE,
  apiKeyScopeMessage,
  type ApiKeyScope,
} from '@prodshot/contracts';
import type { AppDeps } from '../deps.js';
import { looksLikeApiKey } from '../services/accounts/api-keys.js';
import { loadOrCreateSessionKey, type SessionSigningKey } from '../services/accounts/session-tokens.js';
import { errorBody } from './error-handler.js';
import { bindLogContext } from './log-context.js';
import type { AuthUser } from '../services/auth-user.js';

/** The authenticated user of a request, set by `requireUser`. */
export type { AuthUser };

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
    keys: {
      secretKey: EMBEDDED_SECRET_KEY,
      publishableKey: EMBEDDED_PUBLISHABLE_KEY,
      jwtKey: key.publicKeyPem,
      authorizedParties: [authorizedParty],
    },
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

/** The bearer credential of a request, if any. */
function bearer(request: FastifyRequest): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Reading needs `read`; anything that changes something (upload, generate, edit, delete) needs `generate`. */
function scopeNeeded(method: string): ApiKeyScope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'generate';
}

/**
 * A request made with an API key acts as the key's owner, within its scopes. The key is checked on
 * every request (a revoked one is refused at once on every replica) and counts against its own
 * rate limit beside the owner's per-route limits.
 */
async function requireKeyHolder(request: FastifyRequest, reply: FastifyReply, key: string): Promise<void> {
  const holder = await request.server.services.apiKeys.authenticate(key, request.ip);
  if (!holder) {
    return reply.status(401).send(errorBody(401, API_KEY_REFUSED_MESSAGE, 'unauthorized'));
  }
  request.user = holder.user;
  bindLogContext(request, reply, { userId: holder.user.id, apiKeyId: holder.keyId });
  await request.server.rateLimits.take(request, reply, 'api-key', holder.keyId);
  const scope = scopeNeeded(request.method);
  if (!holder.scopes.includes(scope)) {
    return reply.status(403).send(errorBody(403, apiKeyScopeMessage(scope), 'insufficient_scope'));
  }
}

/**
 * onRequest hook of every protected route, added by route-access.ts (before body parsing and validation, so a signed-out call is a 401 whatever it sent):
 * an API key (`Authorization: Bearer psk_…`) acts as its owner within its scopes; otherwise 401
 * unless @clerk/fastify found a valid session token, then `request.user` is the user's row,
 * created on first sight (through `app.services.accounts`). Routes a key must not reach use
 * `requireSession` instead.
 */
export async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = bearer(request);
  if (token !== undefined && looksLikeApiKey(token)) return requireKeyHolder(request, reply, token);
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

/** onRequest hook of the session-only routes (managing keys, payments, registration): `requireUser`, but an API key gets 403. */
export async function requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = bearer(request);
  if (token !== undefined && looksLikeApiKey(token)) {
    return reply.status(403).send(errorBody(403, API_KEY_SESSION_ONLY_MESSAGE, 'session_required'));
  }
  return requireUser(request, reply);
}
