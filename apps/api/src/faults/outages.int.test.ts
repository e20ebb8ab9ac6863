import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createDatabase, migrateToLatest } from '@prodshot/db';
import { freePort, startEmbeddedPostgres } from '@prodshot/embedded';
import { startRestartableRedis, startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { UNAVAILABLE_MESSAGE } from '../plugins/error-handler.js';
import {
  balanceOf,
  connectSocket,
  eventually,
  grantCredits,
  signIn,
  upload,
  type ClientSocket,
} from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';
import {
  expectChargedOnce,
  productPhoto,
  settled,
  startSmart,
  unlessWorkerDies,
} from './fault-support.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;
let workers: WorkerProcess[] = [];
let socket: ClientSocket | undefined;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  socket?.disconnect();
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await testApp?.close();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  workers = [];
  testApp = undefined;
});

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-outage-'));
  await chmod(dir, 0o755);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// Retries spread over ~15 s, so a 5 s outage is ridden out as in production.
const PATIENT = { JOB_ATTEMPTS: '5', JOB_BACKOFF_MS: '1000', WORKER_LOCK_DURATION_MS: '3000' };

describe('dependency outages (each on its own Postgres or Redis, so other tests are untouched)', () => {
  it('Postgres down for 5 s: the API answers 503 with a clear message, workers retry, the generation completes once', async () => {
    const dir = await scratchDir();
    const port = await freePort();
    const options = { dataDir: path.join(dir, 'pg'), port, database: 'prodshot' };
    let postgres = await startEmbeddedPostgres(options);
    cleanups.push(() => postgres.stop());
    const migrator = createDatabase({ connectionString: postgres.url, max: 1 });
    await migrateToLatest(migrator);
    await migrator.destroy();

    testApp = await buildTestApp(stack, { databaseUrl: postgres.url, listen: true, env: PATIENT });
    const session = await signIn(testApp, 'pg-outage@example.com');
    await grantCredits(testApp, session.userId, 4);
    const imageId = (await upload(testApp, session, await productPhoto(), 'box.jpg')).json()._id;
    const connected = await connectSocket(testApp, session.token);
    socket = connected.socket;
    const worker = await startWorkerProcess(testApp.env);
    workers.push(worker);
    const generationId = await startSmart(testApp, session, imageId);
    await eventually(
      () => connected.events.find((e) => e.event === 'generation:style' && e.payload.status === 'running'),
      60_000,
      'a style to run',
    );

    await postgres.stop();
    const during = await testApp.app.inject({
      method: 'GET',
      url: `/api/generations/${generationId}`,
      headers: session.auth,
    });
    expect(during.statusCode).toBe(503);
    expect(during.json().message).toBe(UNAVAILABLE_MESSAGE);
    expect(during.headers['retry-after']).toBe('5');
    await sleep(5_000);
    postgres = await startEmbeddedPostgres(options);

    const final = await unlessWorkerDies(worker, settled(testApp, generationId, 120_000));
    expect(final).toEqual({ status: 'complete', styles: ['complete', 'complete', 'complete', 'complete'] });
    await expectChargedOnce(testApp, generationId, 4);
    expect(await balanceOf(testApp, session.userId)).toBe(0);
  }, 180_000);

  it('Redis restarted mid-generation (AOF on): every generation completes, charged once', async () => {
    const redis = await startRestartableRedis();
    cleanups.push(() => redis.close());

    testApp = await buildTestApp(stack, { redisUrl: redis.url, listen: true, env: PATIENT });
    const session = await signIn(testApp, 'redis-restart@example.com');
    await grantCredits(testApp, session.userId, 8);
    const imageId = (await upload(testApp, session, await productPhoto('#a43'), 'box.jpg')).json()._id;
    const connected = await connectSocket(testApp, session.token);
    socket = connected.socket;
    const worker = await startWorkerProcess(testApp.env);
    workers.push(worker);
    const generations = [await startSmart(testApp, session, imageId), await startSmart(testApp, session, imageId)];
    await eventually(
      () => connected.events.find((e) => e.event === 'generation:style' && e.payload.status === 'complete'),
      60_000,
      'a first style',
    );

    await redis.stop();
    await sleep(1_500);
    await redis.restart();

    for (const generationId of generations) {
      const final = await unlessWorkerDies(worker, settled(testApp, generationId, 120_000));
      expect(final).toEqual({ status: 'complete', styles: ['complete', 'complete', 'complete', 'complete'] });
      await expectChargedOnce(testApp, generationId, 4);
    }
    expect(await balanceOf(testApp, session.userId)).toBe(0);
  }, 180_000);
});
