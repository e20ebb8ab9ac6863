import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, RouteOptions, preHandlerHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '@prodshot/config';
import type { AuthUser } from './auth.js';

/** The calls that reserve credits and wake the image model. */
export const GENERATION_ROUTES = new Set([
  'POST /api/images/generate-product-shots',
  'POST /api/images/smart-generate-product-shots',
  'POST /api/images/generate-single-product-shot',
  'POST /api/images/:id/remove-background',
  'POST /api/images/:id/generate-background',
]);
/** Calls that cost no credits but still run the engine (and a hosted model's bill): a tighter limit of their own. */
export const FREE_ENGINE_ROUTES = new Set(['POST /api/images/generate-product-style-recommendations', 'POST /api/images/enhance-prompt']);
export const UPLOAD_ROUTES = new Set(['POST /api/images/upload']);

/** Thrown into the app's error handler, which answers `{ statusCode: 429, code: 'rate_limited', message }`. */
class RateLimitedError extends Error {
  readonly statusCode = 429;
  readonly code = 'RATE_LIMITED';
}

/**
 * Per-user limits on generation and upload calls, counted in Redis so every API replica shares
 * them. The limiter runs as the route's own preHandler, after `requireUser` (onRequest), so it
 * keys on the signed-in user (an unauthenticated call is refused with 401 before it counts).
 * Register before the routes: they are wrapped as they are added.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config, redis: Redis): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: `${config.redis.queuePrefix}:rate-limit:`,
    // A Redis outage must not take generation down with it; the queue refuses work then anyway.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new RateLimitedError(
        `Too many requests: you can make ${context.max} of these per minute. Please try again in ${context.after}.`,
      ),
  });
  const limiter = (group: string, max: number): preHandlerHookHandler =>
    app.rateLimit({
      max,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `${group}:${(request.user as AuthUser | null)?.id ?? `ip:${request.ip}`}`,
    });
  const generations = limiter('generation', config.rateLimits.generationsPerMinute);
  const uploads = limiter('upload', config.rateLimits.uploadsPerMinute);
  const freeEngine = limiter('free-engine', config.rateLimits.freeEngineCallsPerMinute);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const keys = methods.map((method) => `${method} ${route.url}`);
    const limits: [Set<string>, preHandlerHookHandler][] = [
      [GENERATION_ROUTES, generations],
      [FREE_ENGINE_ROUTES, freeEngine],
      [UPLOAD_ROUTES, uploads],
    ];
    const hook = limits.find(([routes]) => keys.some((key) => routes.has(key)))?.[1];
    if (!hook) return;
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [hook, ...own];
  });
}
