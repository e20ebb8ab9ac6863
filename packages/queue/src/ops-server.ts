import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import pTimeout from 'p-timeout';
import type { Registry } from 'prom-client';
import type { DependencyState, ReadinessResponse } from '@prodshot/contracts';

const CHECK_TIMEOUT_MS = 2_000;

/** Probes of the services a process cannot work without, by name; each is given CHECK_TIMEOUT_MS. */
export type DependencyChecks = Record<string, () => Promise<void>>;

export interface OpsServerOptions {
  checks: DependencyChecks;
  registry?: Registry | undefined;
  modes?: Record<string, string> | undefined;
  /** Why this process takes no work: readiness answers 503 with it, liveness still 200. */
  unfit?: string | undefined;
  logger?: FastifyServerOptions['logger'];
}

async function check(probe: () => Promise<void>): Promise<DependencyState> {
  const started = performance.now();
  try {
    await pTimeout(probe(), { milliseconds: CHECK_TIMEOUT_MS, message: `no answer within ${CHECK_TIMEOUT_MS} ms` });
    return { status: 'ok', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'error', error: error instanceof Error ? error.message : String(error) };
  }
}

/** Runs every check at once; healthy when all answer. */
export async function checkDependencies(
  checks: DependencyChecks,
): Promise<{ healthy: boolean; dependencies: Record<string, DependencyState> }> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, probe]) => [name, await check(probe)] as const),
  );
  return { healthy: entries.every(([, state]) => state.status === 'ok'), dependencies: Object.fromEntries(entries) };
}

/**
 * The operator listener of the API and of each worker, kept off the public port:
 * - `/live`: 200 while the process serves requests, whatever Postgres and Redis do, so a database
 *   blip never gets every pod restarted (liveness);
 * - `/health`: 200 only while every dependency answers and the process is fit for work, 503
 *   otherwise, with each dependency's state and the modes (readiness);
 * - `/metrics`: Prometheus, when given a registry.
 * Callers add their own operator routes (the API's bull-board) before listening.
 */
export function createOpsServer(options: OpsServerOptions): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false });
  const startedAt = Date.now();
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  app.get('/live', async () => ({ status: 'ok' }));
  app.get('/health', async (_request, reply) => {
    const { healthy, dependencies } = await checkDependencies(options.checks);
    const ready = healthy && !options.unfit;
    const body: ReadinessResponse = {
      status: ready ? 'ok' : 'degraded',
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      dependencies,
      ...(options.modes ? { modes: options.modes } : {}),
      ...(options.unfit ? { error: options.unfit } : {}),
    };
    return reply.status(ready ? 200 : 503).send(body);
  });
  const registry = options.registry;
  if (registry) {
    app.get('/metrics', async (_request, reply) =>
      reply.header('content-type', registry.contentType).send(await registry.metrics()),
    );
  }
  return app;
}
