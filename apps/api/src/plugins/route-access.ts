import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import { requireSession, requireUser } from './auth.js';

/**
 * Who may call a product route. Every route under /api/ and /uploads/ is the signed-in caller's
 * (`requireUser`: a session or an API key within its scopes) unless this table names it:
 * - `public`: anyone (health, the client's config, signed files, sign-in, Stripe's own calls, the price list);
 * - `session`: a signed-in person, never an API key (keys, webhook endpoints, registration, payments);
 * - `signed-link-or-user`: a signed link is the proof, else the route asks for the caller itself (batch zips).
 */
export type RouteAccess = 'user' | 'public' | 'session' | 'signed-link-or-user';

const NAMED_ACCESS: Readonly<Record<string, Exclude<RouteAccess, 'user'>>> = {
  'GET /api/health': 'public',
  'GET /api/client-config': 'public',
  'GET /api/files/*': 'public',
  'POST /api/dev/sign-in': 'public',
  'POST /api/auth/verify-token': 'public',
  'POST /api/webhooks/stripe': 'public',
  'GET /api/payments/plans': 'public',
  'GET /api/payments/addon-plans': 'public',
  'POST /api/auth/register': 'session',
  'GET /api/keys': 'session',
  'POST /api/keys': 'session',
  'DELETE /api/keys/:id': 'session',
  'GET /api/webhooks': 'session',
  'POST /api/webhooks': 'session',
  'DELETE /api/webhooks/:id': 'session',
  'GET /api/webhooks/:id/deliveries': 'session',
  'POST /api/webhooks/:id/deliveries/:deliveryId/retry': 'session',
  'POST /api/payments/subscription': 'session',
  'POST /api/payments/credits': 'session',
  'POST /api/payments/portal-session': 'session',
  'POST /api/payments/cancel-subscription': 'session',
  'GET /api/batches/:id/archive': 'signed-link-or-user',
};

/** Where the API's reference is served: under /api/, yet open to all and not itself in the document. */
export const DOCS_PATH = '/api/docs';

/** The API's own routes: operator endpoints, socket.io, the docs and the web app are not. */
export function isProductRoute(url: string): boolean {
  if (url.startsWith(DOCS_PATH)) return false;
  return url.startsWith('/api/') || url.startsWith('/uploads/');
}

/** A HEAD route is its GET's. */
export function routeAccess(method: string, url: string): RouteAccess {
  return NAMED_ACCESS[`${method === 'HEAD' ? 'GET' : method} ${url}`] ?? 'user';
}

/** Every route the table names, for the check that none of them is stale. */
export function namedRoutes(): { method: string; url: string; access: RouteAccess }[] {
  return Object.entries(NAMED_ACCESS).map(([route, access]) => {
    const [method, url] = route.split(' ') as [string, string];
    return { method, url, access };
  });
}

const CHECKS: Partial<Record<RouteAccess, onRequestHookHandler>> = { user: requireUser, session: requireSession };

/**
 * The one authenticated scope: each product route gets its access check as its last onRequest hook
 * (after its own guards, such as loopback-only payments, and before its body is parsed), so no route
 * file applies authentication itself. Register before any route.
 */
export function registerRouteAccess(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = [route.method].flat();
    if (!isProductRoute(route.url) || methods.length !== 1) return;
    const check = CHECKS[routeAccess(methods[0]!, route.url)];
    if (check) route.onRequest = [...[route.onRequest ?? []].flat(), check];
  });
}
