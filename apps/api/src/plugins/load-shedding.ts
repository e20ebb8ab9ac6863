import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '@prodshot/config';
import { errorBody } from './error-handler.js';

type PressureHandler = NonNullable<Parameters<typeof underPressure>[1]['pressureHandler']>;

/** The public health keeps answering under load: load balancers and status checks read it most then (probes and scrapes are on the ops listener, which sheds nothing). */
const NEVER_SHED = new Set(['/api/health']);

/**
 * Sheds requests with 503 and Retry-After while the event loop lags or the heap is over its
 * limit (SHED_*), so an overloaded replica answers fast instead of timing everyone out.
 * Register before the routes: the exemptions are set as routes are added.
 */
export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  const { maxEventLoopDelayMs, maxHeapBytes, retryAfterSeconds } = config.shedding;
  app.addHook('onRoute', (route: RouteOptions) => {
    // under-pressure reads a per-route `pressureHandler`; one that returns nothing lets the request through.
    const passThrough = { pressureHandler: () => undefined };
    if (NEVER_SHED.has(route.url)) route.config = { ...route.config, ...passThrough };
  });
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    maxHeapUsedBytes: maxHeapBytes,
    retryAfter: retryAfterSeconds,
    pressureHandler: shed as unknown as PressureHandler,
  });

  // The plugin sends whatever the handler returns (its typings say void): our error shape, not its bare 503.
  function shed(request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) {
    request.log.warn({ type, value }, 'shedding load');
    reply.status(503).header('Retry-After', String(retryAfterSeconds));
    return errorBody(503, `The service is busy. Please try again in ${retryAfterSeconds} seconds.`, 'overloaded');
  }
}
