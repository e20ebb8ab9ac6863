import type { FastifyInstance } from 'fastify';
import pTimeout from 'p-timeout';
import type { DependencyState, HealthResponse } from '@prodshot/contracts';
import { pingDatabase } from '@prodshot/db';
import { pingRedis } from '@prodshot/queue';
import type { AppDeps } from '../../deps.js';

const CHECK_TIMEOUT_MS = 2_000;

async function check(probe: () => Promise<void>): Promise<DependencyState> {
  const started = performance.now();
  try {
    await pTimeout(probe(), { milliseconds: CHECK_TIMEOUT_MS, message: `no answer within ${CHECK_TIMEOUT_MS} ms` });
    return { status: 'ok', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'error', error: error instanceof Error ? error.message : String(error) };
  }
}

/** `GET /api/health`: 200 when every dependency answers, 503 otherwise, with each one's state. */
export async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const startedAt = Date.now();
  app.get('/api/health', async (_request, reply) => {
    const [postgres, redis, storage] = await Promise.all([
      check(() => pingDatabase(deps.db)),
      check(() => pingRedis(deps.redis, CHECK_TIMEOUT_MS)),
      check(() => deps.store.ping()),
    ]);
    const healthy = [postgres, redis, storage].every((s) => s.status === 'ok');
    const body: HealthResponse = {
      status: healthy ? 'ok' : 'degraded',
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      dependencies: { postgres, redis, storage: { ...storage, driver: deps.store.driver } },
      modes: {
        auth: deps.config.auth.mode,
        payments: deps.config.payments.mode,
        imageModel: deps.config.imageModel.kind,
      },
    };
    return reply.status(healthy ? 200 : 503).header('Cache-Control', 'no-store').send(body);
  });
}
