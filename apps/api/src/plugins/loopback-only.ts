import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { isLoopback, type Config } from '@prodshot/config';
import { errorBody } from './error-handler.js';

/**
 * Every address a request came through: the socket's peer, then each X-Forwarded-For hop from the
 * nearest. A loopback peer is a process on this machine, so what it says it forwards for is read
 * here whatever TRUST_PROXY says: believing it can only refuse more, never let a stranger in.
 */
function clientPath(request: FastifyRequest): string[] {
  const forwarded = request.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  return [request.socket.remoteAddress ?? '', ...hops.reverse()];
}

/** An onRequest hook answering 403 with `message` (which names what to set instead) to any client beyond loopback. */
function loopbackOnly(message: string): onRequestHookHandler {
  return async (request, reply) => {
    const path = clientPath(request);
    if (path.every(isLoopback)) return;
    request.log.warn({ path, url: request.url }, 'keyless mode refused to a client beyond loopback');
    return reply.status(403).send(errorBody(403, message, 'loopback_only'));
  };
}

/**
 * The keyless modes' checks per request. Boot already refuses them where PUBLIC_URL or HOST is
 * beyond loopback without the opt-in flag; these catch what configuration cannot see, such as a
 * same-host tunnel or proxy in front of `npm start`. With the flag set there is nothing to check.
 */
export function embeddedSignInGuard(config: Config): onRequestHookHandler[] {
  if (config.auth.mode !== 'embedded' || config.auth.beyondLoopback) return [];
  return [
    loopbackOnly(
      'The embedded sign-in (anyone signs in as any email) answers on this machine only: set CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY, or ALLOW_EMBEDDED_AUTH=true for a trial',
    ),
  ];
}

export function localPaymentsGuard(config: Config): onRequestHookHandler[] {
  if (config.payments.mode !== 'local' || config.payments.beyondLoopback) return [];
  return [
    loopbackOnly(
      'The local payments (plans granted for free) answer on this machine only: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or ALLOW_LOCAL_PAYMENTS=true for a trial',
    ),
  ];
}
