import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@prodshot/config';
import { createDatabase } from '@prodshot/db';
import { createRedisConnection } from '@prodshot/queue';
import { createTestDatabase, createTestFsStore, type StackInfo } from '@prodshot/testing';
import { buildApp, type BuildAppOptions } from './app.js';
import type { AppDeps } from './deps.js';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

/** The real app on the integration stack: its own database, queue prefix and storage folder. */
export async function buildTestApp(
  stack: StackInfo,
  overrides: { redisUrl?: string; databaseUrl?: string } & BuildAppOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase(stack);
  const storage = await createTestFsStore();
  const redisUrl = overrides.redisUrl ?? stack.redisUrl;
  const databaseUrl = overrides.databaseUrl ?? database.url;
  const config = loadConfig(
    { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, STORAGE_DIR: storage.dir, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    { require: ['DATABASE_URL', 'REDIS_URL'] },
  );
  const redis = createRedisConnection(redisUrl, 'producer', 'api-test');
  redis.on('error', () => {});
  const db = overrides.databaseUrl ? createDatabase({ connectionString: databaseUrl, connectionTimeoutMillis: 1_000 }) : database.db;
  const deps: AppDeps = { config, db, redis, store: storage.store, fileSigningSecret: storage.signingSecret };
  const app = await buildApp(deps, { logger: false, ...overrides });
  return {
    app,
    deps,
    close: async () => {
      await app.close();
      redis.disconnect();
      if (db !== database.db) await db.destroy();
      await Promise.all([database.drop(), storage.cleanup()]);
    },
  };
}
