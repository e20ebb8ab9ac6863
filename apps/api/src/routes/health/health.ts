import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { HealthResponse } from '@prodshot/contracts';
import { pingDatabase } from '@prodshot/db';
import { checkDependencies, pingRedis, type DependencyChecks } from '@prodshot/queue';
import type { AppDeps } from '../../deps.js';

/** What the API cannot serve without; the ops listener's /health names each one's state. */
export function apiDependencyChecks(deps: AppDeps): DependencyChecks {
  return {
    postgres: () => pingDatabase(deps.db),
    redis: () => pingRedis(deps.redis),
    storage: () => deps.store.ping(),
  };
}

/**
 * `GET /api/health`: 200 `{ status: 'ok' }` when every dependency answers, 503 `{ status: 'degraded' }`
 * otherwise. Which one failed, why, and the modes the API runs in are for operators only: they are
 * on the ops listener's /health, not on the public port.
 */
export async function healthRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const checks = apiDependencyChecks(deps);
  app.get(
    '/api/health',
    { schema: { response: { 200: HealthResponse, 503: HealthResponse } } },
    async (_request, reply) => {
      const { healthy } = await checkDependencies(checks);
      const body: HealthResponse = { status: healthy ? 'ok' : 'degraded' };
      return reply
        .status(healthy ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send(body);
    },
  );
}
