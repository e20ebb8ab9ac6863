import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, preHandlerHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '@prodshot/config';
import type { CreateBatchRequest } from '@prodshot/contracts';
import { HttpError } from '../services/http-error.js';
import type { AuthUser } from './auth.js';
import { RateLimitStore, type RateLimitWindow } from './rate-limit-store.js';

const WINDOW_SECONDS = 60;

/** Each limit is also the policy name the RateLimit headers carry. */
export type RateLimitName =
  'generation' | 'upload' | 'free-engine' | 'iteration' | 'export' | 'compliance' | 'archive' | 'payment' | 'api-key';

interface LimitedRoute {
  limit: RateLimitName;
  /** Units one call takes; one unless said. */
  cost?: (request: FastifyRequest) => number;
}

/**
 * Every costly route and the limit it counts against. Calls that reserve credits and wake the
 * image model share one budget, a batch taking one unit per photo; the calls that cost no credits
 * but run the engine (or a hosted model's bill) have a tighter one. The batch archive is limited
 * in its handler, per batch owner, because a signed link opens it without a session.
 */
const LIMITED_ROUTES: Record<string, LimitedRoute> = {
  'POST /api/images/generate-product-shots': { limit: 'generation' },
  'POST /api/images/smart-generate-product-shots': { limit: 'generation' },
  'POST /api/images/generate-single-product-shot': { limit: 'generation' },
  'POST /api/images/:id/remove-background': { limit: 'generation' },
  'POST /api/images/:id/generate-background': { limit: 'generation' },
  'POST /api/batches': { limit: 'generation', cost: (request) => (request.body as CreateBatchRequest).items.length },
  'POST /api/images/generate-product-style-recommendations': { limit: 'free-engine' },
  'POST /api/images/enhance-prompt': { limit: 'free-engine' },
  'POST /api/images/:id/outline': { limit: 'free-engine' },
  'POST /api/images/:id/outline/confirm': { limit: 'free-engine' },
  'POST /api/images/upload': { limit: 'upload' },
  'POST /api/generations/:id/outputs/:index/more-like-this': { limit: 'iteration' },
  'POST /api/generations/:id/styles/:index/retry': { limit: 'iteration' },
  'POST /api/exports': { limit: 'export' },
  'GET /api/generations/:id/compliance': { limit: 'compliance' },
  'POST /api/payments/subscription': { limit: 'payment' },
  'POST /api/payments/credits': { limit: 'payment' },
  'POST /api/payments/portal-session': { limit: 'payment' },
  'POST /api/payments/cancel-subscription': { limit: 'payment' },
};

export interface RateLimits {
  /**
   * Takes `cost` units of `limit` for `subject` (a user id, or an API key's id for `api-key`) and sets the RateLimit headers, or
   * throws 429 with Retry-After when they do not all fit, taking none.
   */
  take(
    request: FastifyRequest,
    reply: FastifyReply,
    limit: RateLimitName,
    subject: string,
    cost?: number,
  ): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

function maxima(config: Config): Record<RateLimitName, number> {
  const limits = config.rateLimits;
  return {
    generation: limits.generationsPerMinute,
    upload: limits.uploadsPerMinute,
    'free-engine': limits.freeEngineCallsPerMinute,
    iteration: limits.iterationsPerMinute,
    export: limits.exportsPerMinute,
    compliance: limits.complianceChecksPerMinute,
    archive: limits.archivesPerMinute,
    payment: limits.paymentsPerMinute,
    'api-key': limits.apiKeyRequestsPerMinute,
  };
}

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers, structured-field lists): this
 * limit's item added after the ones an earlier limit of the same request set (an API key's own
 * limit, then the route's), so a call made with a key shows both.
 */
function rateLimitHeaders(
  reply: FastifyReply,
  limit: RateLimitName,
  max: number,
  window: RateLimitWindow,
): Record<string, string> {
  const item = {
    'RateLimit-Policy': `"${limit}";q=${max};w=${WINDOW_SECONDS}`,
    RateLimit: `"${limit}";r=${Math.max(0, max - window.used)};t=${secondsLeft(window)}`,
  };
  const after = (name: keyof typeof item) => {
    const earlier = reply.getHeader(name);
    return earlier === undefined ? item[name] : `${String(earlier)}, ${item[name]}`;
  };
  return { 'RateLimit-Policy': after('RateLimit-Policy'), RateLimit: after('RateLimit') };
}

function secondsLeft(window: RateLimitWindow): number {
  return Math.max(1, Math.ceil(window.resetMs / 1000));
}

function refusal(limit: RateLimitName, max: number, cost: number, window: RateLimitWindow): string {
  const seconds = secondsLeft(window);
  const wait = `Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  if (limit === 'api-key') return `Too many requests with this API key: it can make ${max} per minute. ${wait}`;
  if (cost === 1) return `Too many requests: you can make ${max} of these per minute. ${wait}`;
  // Only a batch takes more than one unit: one generation per photo.
  return `Too many requests: this batch needs ${cost} generations and ${Math.max(0, max - window.used)} of your ${max} per minute are left. ${wait}`;
}

function createRateLimits(config: Config, redis: Redis): RateLimits {
  const store = new RateLimitStore(redis, `${config.redis.queuePrefix}:rate-limit:`);
  const max = maxima(config);
  return {
    async take(request, reply, limit, subject, cost = 1) {
      let window: RateLimitWindow;
      try {
        window = await store.take(`${limit}:${subject}`, cost, max[limit], WINDOW_SECONDS * 1000);
      } catch (error) {
        // A Redis outage must not take these calls down with it; the queue refuses work then anyway.
        request.log.warn({ err: error, limit }, 'rate limit not checked: Redis did not answer');
        return;
      }
      const headers = rateLimitHeaders(reply, limit, max[limit], window);
      if (!window.allowed) {
        throw new HttpError(
          429,
          refusal(limit, max[limit], cost, window),
          'rate_limited',
          {},
          { ...headers, 'Retry-After': String(secondsLeft(window)) },
        );
      }
      void reply.headers(headers);
    },
  };
}

/**
 * Per-user limits on every costly call, counted in Redis so every API replica shares them. The
 * limiter runs as the route's own first preHandler: after `requireUser` (onRequest), so it keys on
 * the signed-in user (an unauthenticated call is refused with 401 before it counts), and after
 * validation, so a batch is counted by its photos. Register before the routes: they are wrapped as
 * they are added.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config, redis: Redis): Promise<void> {
  const limits = createRateLimits(config, redis);
  app.decorate('rateLimits', limits);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limited = methods
      .map((method) => LIMITED_ROUTES[`${method} ${route.url}`])
      .find((entry) => entry !== undefined);
    if (!limited) return;
    const hook: preHandlerHookHandler = async (request, reply) => {
      const subject = (request.user as AuthUser | null)?.id ?? `ip:${request.ip}`;
      await limits.take(request, reply, limited.limit, subject, limited.cost?.(request) ?? 1);
    };
    const own =
      route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [hook, ...own];
  });
}
