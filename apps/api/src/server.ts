import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { ConfigError, loadConfig } from '@prodshot/config';
import { createDatabase, migrateToLatest } from '@prodshot/db';
import { decodeEachImageOnce } from '@prodshot/imaging/input';
import { createRedisConnection, JobProducer } from '@prodshot/queue';
import { createObjectStore, resolveSigningSecret, waitUntilReady } from '@prodshot/storage';
import { buildApp } from './app.js';

const SHUTDOWN_DEADLINE_MS = 20_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env, { require: ['DATABASE_URL', 'REDIS_URL'] });
  decodeEachImageOnce();
  const db = createDatabase({ connectionString: config.databaseUrl! });
  await migrateToLatest(db);
  const redisUrl = config.redis.url!;
  const redis = createRedisConnection(redisUrl, 'producer', 'api');
  const producer = new JobProducer(
    redis,
    config.redis.queuePrefix,
    () => createRedisConnection(redisUrl, 'consumer', 'api-events'),
    config.jobs,
  );
  const fileSigningSecret = await resolveSigningSecret(config.storage, config.dataDir);
  const store = createObjectStore(config.storage, { signingSecret: fileSigningSecret });
  // Before the app (and its logger) exists: the same pino lines an operator reads afterwards.
  const bootLog = pino({ level: config.logLevel, base: { service: 'api', pid: process.pid } });
  await waitUntilReady(store, {
    onRetry: (err, attempt) => bootLog.warn({ err, attempt }, 'object store not ready yet; trying again'),
  });

  const webDistDir =
    config.http.webDistDir ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  const { app, ops } = await buildApp({ config, db, redis, store, fileSigningSecret, producer }, { webDistDir });
  await app.listen({ host: config.http.host, port: config.http.port });
  await ops.listen({ host: config.ops.host, port: config.ops.port });

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new requests, finishing the ones in flight');
    const deadline = setTimeout(() => {
      app.log.error('shutdown deadline passed, exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    await app.close();
    await producer.close();
    await Promise.allSettled([db.destroy(), redis.quit()]);
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void shutdown(signal));
  process.on('SIGINT', (signal) => void shutdown(signal));
}

main().catch((error: unknown) => {
  // A bad variable is one readable line, not a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
