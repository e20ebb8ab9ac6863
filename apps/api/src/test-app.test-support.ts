import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@prodshot/config';
import { createDatabase } from '@prodshot/db';
import { createRedisConnection, JobProducer } from '@prodshot/queue';
import { createObjectStore, type ObjectStore } from '@prodshot/storage';
import {
  createTestDatabase,
  testSessionKey,
  uniqueQueuePrefix,
  type StackInfo,
  type TestSessionKey,
} from '@prodshot/testing';
import { buildApp, type BuildAppOptions } from './app.js';
import type { AppDeps } from './deps.js';
import { SESSION_KEY_FILE } from './services/accounts/session-tokens.js';

export interface TestApp {
  app: FastifyInstance;
  /** The operator listener (metrics, readiness, liveness, the queue board), closed with `app`. */
  ops: FastifyInstance;
  deps: AppDeps & { store: ObjectStore };
  /** The environment the app was configured from: spawn workers with it and they share everything. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export interface TestAppOverrides extends BuildAppOptions {
  redisUrl?: string;
  databaseUrl?: string;
  /** Listen on a loopback port (for socket.io clients); the public URL follows it. */
  listen?: boolean;
  /** Extra environment: STRIPE_* for the Stripe provider, CLERK_* for the clerk auth mode. */
  env?: NodeJS.ProcessEnv;
  /** The embedded mode's signing key; defaults to testSessionKey(), which mintSessionToken signs with. */
  sessionKey?: TestSessionKey;
}

/** The real app on the integration stack: its own database, queue prefix, data and storage folders. */
export async function buildTestApp(stack: StackInfo, overrides: TestAppOverrides = {}): Promise<TestApp> {
  const database = await createTestDatabase(stack);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'prodshot-test-app-'));
  await chmod(dataDir, 0o755);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: overrides.databaseUrl ?? database.url,
    REDIS_URL: overrides.redisUrl ?? stack.redisUrl,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    DATA_DIR: dataDir,
    STORAGE_DIR: path.join(dataDir, 'storage'),
    SIGNED_URL_SECRET: randomBytes(24).toString('hex'),
    PUBLIC_URL: 'http://127.0.0.1:3000',
    WORKER_CONCURRENCY: '2',
    // Quick retries keep failure tests short; the outage tests set production-like values.
    JOB_ATTEMPTS: '3',
    JOB_BACKOFF_MS: '200',
    ...overrides.env,
  };
  const keyDir = path.join(dataDir, 'keys');
  await mkdir(keyDir, { recursive: true });
  await writeFile(path.join(keyDir, SESSION_KEY_FILE), (overrides.sessionKey ?? testSessionKey()).privateKeyPem, {
    mode: 0o600,
  });
  const config = loadConfig(env, { require: ['DATABASE_URL', 'REDIS_URL'] });
  const redisUrl = config.redis.url!;
  const redis = createRedisConnection(redisUrl, 'producer', 'api-test');
  redis.on('error', () => {});
  const eventConnections: ReturnType<typeof createRedisConnection>[] = [];
  const producer = new JobProducer(
    redis,
    config.redis.queuePrefix,
    () => {
      const connection = createRedisConnection(redisUrl, 'consumer', 'api-test-events');
      connection.on('error', () => {});
      eventConnections.push(connection);
      return connection;
    },
    config.jobs,
  );
  const db = overrides.databaseUrl
    ? createDatabase({ connectionString: config.databaseUrl!, connectionTimeoutMillis: 1_000 })
    : database.db;
  const fileSigningSecret = env.SIGNED_URL_SECRET;
  const store = createObjectStore(config.storage, { signingSecret: fileSigningSecret });
  await store.ensureReady();
  const deps = { config, db, redis, store, fileSigningSecret, producer };
  const { app, ops } = await buildApp(deps, { logger: false, ...overrides });
  if (overrides.listen) {
    await app.listen({ host: '127.0.0.1', port: 0 });
  }
  return {
    app,
    ops,
    deps,
    env,
    close: async () => {
      await app.close();
      await producer.close().catch(() => {});
      for (const connection of eventConnections) connection.disconnect();
      redis.disconnect();
      if (db !== database.db) await db.destroy();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
