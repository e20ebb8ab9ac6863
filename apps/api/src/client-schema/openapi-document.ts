import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig } from '@prodshot/config';
import { createDatabase } from '@prodshot/db';
import { JobProducer, QUEUE_NAMES } from '@prodshot/queue';
import { createObjectStore } from '@prodshot/storage';
import { buildApp } from '../app.js';

/**
 * The deployment the published document describes: Stripe payments (so the Stripe webhook route is
 * in it) and the embedded sign-in. Nothing here is ever connected to.
 */
export const DOCUMENT_ENV: NodeJS.ProcessEnv = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  // Nothing listens on the discard port: no query or command is ever sent while the document is built.
  DATABASE_URL: 'postgres://offline@127.0.0.1:9/offline',
  REDIS_URL: 'redis://127.0.0.1:9',
  PUBLIC_URL: 'http://localhost:3000',
  SIGNED_URL_SECRET: 'offline-openapi-document',
  STRIPE_SECRET_KEY: 'sk_test_openapi',
  STRIPE_WEBHOOK_SECRET: 'whsec_openapi',
};

/**
 * The app's OpenAPI document, built offline: the real app's routes and schemas on connections that
 * are never opened (lazy Redis, an unqueried pool). What @prodshot/client's types are generated from.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'prodshot-openapi-'));
  const config = loadConfig(
    { ...DOCUMENT_ENV, DATA_DIR: dataDir, STORAGE_DIR: path.join(dataDir, 'storage') },
    { require: ['DATABASE_URL', 'REDIS_URL'] },
  );
  const lazyRedis = () =>
    new Redis(config.redis.url!, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
  const redis = lazyRedis();
  const db = createDatabase({ connectionString: config.databaseUrl! });
  const producer = new JobProducer(redis, config.redis.queuePrefix, lazyRedis, config.jobs);
  // BullMQ's queues try their connection at once; its refusal is expected here, not news.
  for (const name of QUEUE_NAMES) producer.queue(name).on('error', () => {});
  const fileSigningSecret = DOCUMENT_ENV.SIGNED_URL_SECRET;
  const store = createObjectStore(config.storage, { signingSecret: fileSigningSecret });
  const { app } = await buildApp({ config, db, redis, store, fileSigningSecret, producer }, { logger: false });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    redis.disconnect();
    await db.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
}
