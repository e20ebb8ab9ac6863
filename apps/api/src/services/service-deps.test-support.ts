import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { Registry } from 'prom-client';
import sharp from 'sharp';
import { loadConfig } from '@prodshot/config';
import type { JobName } from '@prodshot/contracts';
import { createRepositories, type CreditBalance, type GenerationKind, type IdempotencyClaim } from '@prodshot/db';
import { createRedisConnection, JOB_QUEUE, JobProducer } from '@prodshot/queue';
import { ArchiveLinkSecret, uploadKey } from '@prodshot/storage';
import {
  createTestDatabase,
  createTestFsStore,
  testSellers,
  uniqueQueuePrefix,
  type StackInfo,
  type TestSellers,
} from '@prodshot/testing';
import { HttpError } from './http-error.js';
import { createServices, type ServiceDeps, type Services } from './services.js';

/** A job the services enqueued, as a worker would pick it up. */
export interface QueuedJob {
  name: string;
  data: Record<string, unknown>;
}

export interface TestServices extends TestSellers {
  deps: ServiceDeps;
  services: Services;
  /** Every balance the services announced after moving a user's credits, in order. */
  creditsChanged: { userId: string; balance: CreditBalance }[];
  /** Every amount paid work counted as reserved (the API's credits-reserved metric), in order. */
  creditsReserved: number[];
  /** An upload of a drawn product stored and recorded for `userId`, as the upload call leaves it. */
  newUpload(userId: string): Promise<{ imageId: string; sourceKey: string }>;
  /**
   * A generation of `userId`'s upload as the worker leaves it: one slot per status, a finished one
   * with its stored result (`results/<id>-<index>.png`) and seed 7.
   */
  newGeneration(
    userId: string,
    imageId: string,
    kind: GenerationKind,
    slots: ('queued' | 'complete' | 'failed')[],
  ): Promise<string>;
  /** The job waiting under `jobId` on `name`'s queue, undefined if none was enqueued. */
  queued(name: JobName, jobId: string): Promise<QueuedJob | undefined>;
  close(): Promise<void>;
}

/**
 * The API's services as the app builds them, without HTTP: their own database, storage folder and
 * queue prefix on the integration stack. No worker runs, so enqueued jobs wait to be read back.
 */
export async function buildTestServices(stack: StackInfo, env: NodeJS.ProcessEnv = {}): Promise<TestServices> {
  const database = await createTestDatabase(stack);
  const storage = await createTestFsStore();
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: stack.redisUrl,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    PUBLIC_URL: 'http://127.0.0.1:3000',
    ...env,
  });
  const redis = createRedisConnection(stack.redisUrl, 'producer', 'service-deps-test');
  const eventConnections: ReturnType<typeof createRedisConnection>[] = [];
  const producer = new JobProducer(redis, config.redis.queuePrefix, () => {
    const events = createRedisConnection(stack.redisUrl, 'consumer', 'service-deps-test-events');
    eventConnections.push(events);
    return events;
  });
  const creditsChanged: TestServices['creditsChanged'] = [];
  const creditsReserved: number[] = [];
  const repos = createRepositories(database.db);
  const deps: ServiceDeps = {
    config,
    db: database.db,
    redis,
    store: storage.store,
    fileSigningSecret: storage.signingSecret,
    producer,
    repos,
    archiveLinkSecret: new ArchiveLinkSecret(redis),
    onCreditsChanged: (userId, balance) => creditsChanged.push({ userId, balance }),
    metrics: {
      registry: new Registry(),
      creditsReserved: (amount) => creditsReserved.push(amount),
      secondSubscriptionCancelled: () => undefined,
    },
  };
  return {
    deps,
    services: createServices(deps),
    creditsChanged,
    creditsReserved,
    ...testSellers(database.db, repos.credits),
    async newUpload(userId) {
      const bytes = await drawnProductPhoto();
      const fileId = randomUUID();
      const sourceKey = uploadKey(userId, fileId, 'image/png');
      await storage.store.put(sourceKey, bytes, 'image/png');
      const row = await repos.images.create({
        user_id: userId,
        file_id: fileId,
        name: 'rose serum.png',
        storage_key: sourceKey,
        content_type: 'image/png',
        width: 640,
        height: 640,
        bytes: bytes.length,
      });
      return { imageId: row.id, sourceKey };
    },
    async newGeneration(userId, imageId, kind, slots) {
      const generation = await repos.generations.create({
        userId,
        imageId,
        kind,
        stage: null,
        request: {},
        slots: slots.map((_, index) => ({
          index,
          name: `Style ${index}`,
          prompt: 'on white marble',
          backgroundType: 'marble',
        })),
      });
      for (const [index, status] of slots.entries()) {
        if (status === 'complete')
          await repos.generations.completeStyle(generation.id, index, `results/${generation.id}-${index}.png`, 7);
        if (status === 'failed') await repos.generations.failStyle(generation.id, index, 'the model refused');
      }
      return generation.id;
    },
    async queued(name, jobId) {
      const job = await producer.queue(JOB_QUEUE[name]).getJob(jobId);
      return job ? { name: job.name, data: job.data as Record<string, unknown> } : undefined;
    },
    async close() {
      await producer.close();
      for (const events of eventConnections) events.disconnect();
      redis.disconnect();
      await database.drop();
      await storage.cleanup();
    },
  };
}

/** A bottle on a pale sweep: enough of a product photo for the services, which never decode it. */
function drawnProductPhoto(): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640"><rect width="640" height="640" fill="#f4f1ec"/>' +
    '<rect x="260" y="160" width="120" height="340" rx="24" fill="#b0405a"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The services for one test file: built on the integration stack before its tests, closed after them. */
export function useTestServices(env: NodeJS.ProcessEnv = {}): TestServices {
  const services = {} as TestServices;
  beforeAll(async () => {
    Object.assign(services, await buildTestServices(inject('stack'), env));
  });
  afterAll(async () => {
    await services.close();
  });
  return services;
}

/** An Idempotency-Key claim on `request` (a fresh key unless named), as the route makes one. */
export function keyClaim(userId: string, request: unknown, key: string = randomUUID()): IdempotencyClaim {
  return { userId, key, requestHash: createHash('sha256').update(JSON.stringify(request)).digest('hex') };
}

/** The HttpError a service call refused with (the test fails if it went through or threw anything else). */
export async function refusal(call: Promise<unknown>): Promise<HttpError> {
  const error = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}
