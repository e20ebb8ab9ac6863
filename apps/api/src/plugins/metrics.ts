import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { registerQueueDepthGauge, type JobProducer } from '@prodshot/queue';
import type { RealtimeServer } from '../realtime/socket-server.js';

export interface ApiMetrics {
  registry: Registry;
  creditsReserved(amount: number): void;
  /** A seller's second Stripe subscription (two checkouts raced) was cancelled and refunded. */
  secondSubscriptionCancelled(): void;
}

/** Queue states scraped from Redis; the names match the worker's `prodshot_queue_jobs` so dashboards read either. */

/**
 * Prometheus metrics of one API process on a registry of its own (several apps share a test
 * process): HTTP latency per route, queue depth per queue read from Redis at scrape time,
 * credits reserved, second subscriptions cancelled, and the socket connections this replica holds.
 */
export function createApiMetrics(producer: JobProducer, io: RealtimeServer): ApiMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'api' });
  collectDefaultMetrics({ register: registry });
  registerQueueDepthGauge(registry, producer);
  new Gauge({
    name: 'prodshot_socket_connections',
    help: 'socket.io connections held by this API replica',
    registers: [registry],
    collect() {
      this.set(io.engine.clientsCount);
    },
  });
  const reserved = new Counter({
    name: 'prodshot_credits_reserved_total',
    help: 'Credits reserved for accepted generations (refunds are counted by the workers)',
    registers: [registry],
  });
  const secondSubscriptions = new Counter({
    name: 'prodshot_second_subscriptions_cancelled_total',
    help: "Sellers' second Stripe subscriptions (two checkouts raced) cancelled at once and refunded",
    registers: [registry],
  });
  return {
    registry,
    creditsReserved: (amount) => reserved.inc(amount),
    secondSubscriptionCancelled: () => secondSubscriptions.inc(),
  };
}

/** Times every request on the public port; the ops listener serves the registry at `/metrics`. */
export function registerMetrics(app: FastifyInstance, metrics: ApiMetrics): void {
  const latency = new Histogram({
    name: 'prodshot_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 90],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL, so ids and unknown paths cannot blow up the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
