// Over 250 lines: the worker's medium-test harness: real dependencies built once plus the uploads, jobs and
// finished shots every handler test starts from.
import { randomUUID } from 'node:crypto';
import type { Job, JobsOptions } from 'bullmq';
import sharp from 'sharp';
import { loadConfig } from '@prodshot/config';
import type { GenerationKind, JobName, JobPayloads, ServerToClientEvents, Publisher } from '@prodshot/contracts';
import { createRepositories, type GenerationsRepository, type NewSlot } from '@prodshot/db';
import { LocalImageModel, type ImageModel } from '@prodshot/imaging';
import { createRedisConnection, JobProducer } from '@prodshot/queue';
import { uploadKey } from '@prodshot/storage';
import {
  createTestDatabase,
  createTestFsStore,
  testSellers,
  uniqueQueuePrefix,
  type StackInfo,
  type TestSellers,
} from '@prodshot/testing';
import type { WorkerDeps } from './deps.js';
import { createDispatcher } from './dispatch.js';
import { handlers } from './handlers/index.js';

export interface PublishedEvent {
  userId: string;
  event: keyof ServerToClientEvents;
  payload: Record<string, unknown>;
}

/** `generations` is `repos.generations`, at hand for assertions. */
export type TestDeps = WorkerDeps & {
  generations: GenerationsRepository;
  metrics: { creditsRefunded(amount: number): void; refunded: number };
};

/** A stored upload: its row and its re-encoded file, as the API leaves them for the worker. */
export interface TestUpload {
  imageId: string;
  sourceKey: string;
}

export interface NewGenerationOptions {
  kind?: GenerationKind;
  imageId?: string | null;
  request?: Record<string, unknown>;
}

export interface TestWorkerDeps extends TestSellers {
  deps: TestDeps;
  /** Every event the worker code published, in order. */
  events: PublishedEvent[];
  /** A generation with its slots and `reserved` credits taken, as the API opens one. */
  newGeneration(userId: string, slots: number, reserved: number, options?: NewGenerationOptions): Promise<string>;
  /** An upload of `photo` (a drawn product by default) stored and recorded for `userId`. */
  newUpload(userId: string, photo?: Buffer): Promise<TestUpload>;
  /** The same deps with some of the engine's calls replaced (a failing or counting engine). */
  withEngine(overrides: Partial<ImageModel>): TestDeps;
  close(): Promise<void>;
}

/**
 * What a worker process runs with, in this process: its own database, storage folder and queue
 * prefix on the integration stack, the local engine without the ML model, and a publisher that
 * records instead of going through Redis.
 */
export async function buildWorkerDeps(stack: StackInfo): Promise<TestWorkerDeps> {
  const database = await createTestDatabase(stack);
  const storage = await createTestFsStore();
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: stack.redisUrl,
    QUEUE_PREFIX: uniqueQueuePrefix(),
  });
  const connection = createRedisConnection(stack.redisUrl, 'producer', 'worker-deps-test');
  const eventConnections: ReturnType<typeof createRedisConnection>[] = [];
  const producer = new JobProducer(connection, config.redis.queuePrefix, () => {
    const events = createRedisConnection(stack.redisUrl, 'consumer', 'worker-deps-test-events');
    eventConnections.push(events);
    return events;
  });
  const events: PublishedEvent[] = [];
  const publisher: Publisher = {
    emit(userId, event, payload) {
      events.push({ userId, event, payload: payload as Record<string, unknown> });
    },
  };
  const metrics = {
    refunded: 0,
    creditsRefunded(amount: number) {
      metrics.refunded += amount;
    },
  };
  const repos = createRepositories(database.db);
  const { credits, generations } = repos;
  const deps: TestDeps = {
    config,
    db: database.db,
    store: storage.store,
    engine: new LocalImageModel(),
    repos,
    generations,
    publisher,
    producer,
    metrics,
  };
  return {
    deps,
    events,
    ...testSellers(database.db, credits),
    async newGeneration(userId, slots, reserved, options = {}) {
      const styles: NewSlot[] = Array.from({ length: slots }, (_, index) => ({
        index,
        name: `Style ${index}`,
        prompt: null,
        backgroundType: 'studio',
      }));
      const generation = await generations.create({
        userId,
        imageId: options.imageId ?? null,
        kind: options.kind ?? 'smart',
        stage: null,
        request: options.request ?? {},
        slots: styles,
      });
      if (reserved > 0)
        await credits.reserve({
          userId,
          generationId: generation.id,
          amount: reserved,
          idempotencyKey: `reserve:${generation.id}`,
        });
      return generation.id;
    },
    async newUpload(userId, photo) {
      const bytes = photo ?? (await drawnProductPhoto());
      const fileId = randomUUID();
      const sourceKey = uploadKey(userId, fileId, 'image/png');
      await storage.store.put(sourceKey, bytes, 'image/png');
      const { width = 0, height = 0 } = await sharp(bytes)
        .metadata()
        .catch(() => ({ width: 0, height: 0 }));
      const row = await repos.images.create({
        user_id: userId,
        file_id: fileId,
        name: 'rose serum',
        storage_key: sourceKey,
        content_type: 'image/png',
        width,
        height,
        bytes: bytes.length,
      });
      return { imageId: row.id, sourceKey };
    },
    withEngine(overrides) {
      return { ...deps, engine: engineWith(deps.engine, overrides) };
    },
    async close() {
      await producer.close();
      for (const events of eventConnections) events.disconnect();
      connection.disconnect();
      await database.drop();
      await storage.cleanup();
    },
  };
}

/** The engine with some calls replaced; the rest reach the real one. */
function engineWith(base: ImageModel, overrides: Partial<ImageModel>): ImageModel {
  return new Proxy(base, {
    get: (target, property, receiver) =>
      Object.hasOwn(overrides, property)
        ? overrides[property as keyof ImageModel]
        : Reflect.get(target, property, receiver),
  });
}

/** A drawn serum bottle on a pale backdrop: one clear product the local engine finds without its model. */
export async function drawnProductPhoto(): Promise<Buffer> {
  const bottle = await sharp({ create: { width: 180, height: 360, channels: 3, background: '#c23a5a' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 600, height: 600, channels: 3, background: '#f1efe9' } })
    .composite([{ input: bottle, left: 210, top: 120 }])
    .png()
    .toBuffer();
}

/** A job as BullMQ hands it to a processor: its data, options and attempt count, and progress that goes nowhere. */
export function jobOf<K extends JobName>(
  name: K,
  data: JobPayloads[K],
  options: { attemptsMade?: number; opts?: JobsOptions } = {},
): Job<JobPayloads[K]> {
  const progress: unknown[] = [];
  return {
    name,
    data,
    opts: options.opts ?? {},
    attemptsMade: options.attemptsMade ?? 0,
    progress,
    async updateProgress(value: unknown) {
      progress.push(value);
    },
  } as unknown as Job<JobPayloads[K]>;
}

/**
 * One attempt through the worker's dispatcher, as main.ts wires it: the handler runs and, when the
 * attempt fails for good (the last of `attempts`, or a permanent error), settles and refunds.
 */
export function dispatch<K extends JobName>(
  deps: WorkerDeps,
  name: K,
  data: JobPayloads[K],
  attempt: { attemptsMade: number; attempts: number } = { attemptsMade: 0, attempts: 1 },
): Promise<unknown> {
  const run = createDispatcher(handlers, deps, { deadlineMs: deps.config.jobs.deadlineMs });
  return run(jobOf(name, data, { attemptsMade: attempt.attemptsMade, opts: { attempts: attempt.attempts } }));
}

/** The fields every job about one upload carries. */
export function sourceOf(userId: string, generationId: string, upload: TestUpload): JobPayloads['remove-background'] {
  return {
    userId,
    generationId,
    imageId: upload.imageId,
    sourceKey: upload.sourceKey,
    productTitle: 'Rose serum',
    productDescription: undefined,
    focus: undefined,
  };
}

/**
 * The smart flow's first job, server-run (`fan-out`, opening `styleCount` slots) or client-run. The
 * one place these tests spell the payload's shape, so a change of shape is made here once.
 */
export function styleRecommendationPayload(
  source: JobPayloads['remove-background'],
  mode: { mode: 'fan-out'; styleCount: number } | { mode: 'client' },
  size: JobPayloads['style-recommendation']['size'] = 1024,
): JobPayloads['style-recommendation'] {
  return { ...source, ...mode, size };
}

/** A seller's finished one-output manual shot on a template, made by the product-shot handler, their `credits` less the one it cost. */
export async function finishedShot(
  t: TestWorkerDeps,
  credits = 1,
): Promise<{ userId: string; generationId: string; upload: TestUpload }> {
  const userId = await t.newUser(credits);
  const upload = await t.newUpload(userId);
  const generationId = await t.newGeneration(userId, 1, 1, { kind: 'manual', imageId: upload.imageId });
  const payload = {
    ...sourceOf(userId, generationId, upload),
    backgroundType: 'studio' as const,
    prompt: undefined,
    count: 1,
    upscaleImageFirst: false,
    size: 1024 as const,
  };
  await handlers['product-shot'].run(jobOf('product-shot', payload), t.deps);
  return { userId, generationId, upload };
}
