import { loadConfig } from '@prodshot/config';
import type { ServerToClientEvents } from '@prodshot/contracts';
import { createRepositories, type GenerationsRepository, type NewSlot } from '@prodshot/db';
import { LocalImageModel } from '@prodshot/imaging';
import { createRedisConnection, JobProducer } from '@prodshot/queue';
import { createTestDatabase, createTestFsStore, uniqueQueuePrefix, type StackInfo } from '@prodshot/testing';
import type { WorkerDeps } from './deps.js';
import type { Publisher } from './realtime/publisher.js';

export interface PublishedEvent {
  userId: string;
  event: keyof ServerToClientEvents;
  payload: Record<string, unknown>;
}

export interface TestWorkerDeps {
  /** `generations` is `repos.generations`, at hand for assertions. */
  deps: WorkerDeps & { generations: GenerationsRepository; metrics: { creditsRefunded(amount: number): void; refunded: number } };
  /** Every event the worker code published, in order. */
  events: PublishedEvent[];
  /** A user with `credits` add-on credits. */
  newUser(credits: number): Promise<string>;
  /** A generation with its slots and `reserved` credits taken, as the API opens one. */
  newGeneration(userId: string, slots: number, reserved: number): Promise<string>;
  balance(userId: string): Promise<number>;
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
  const config = loadConfig({ DATABASE_URL: database.url, REDIS_URL: stack.redisUrl, QUEUE_PREFIX: uniqueQueuePrefix() });
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
  const deps = { config, db: database.db, store: storage.store, engine: new LocalImageModel(), repos, generations, publisher, producer, metrics };
  return {
    deps,
    events,
    async newUser(amount) {
      const { id } = await database.db.insertInto('users').values({ clerk_id: `user_${crypto.randomUUID()}`, email: 'seller@example.com' }).returning('id').executeTakeFirstOrThrow();
      if (amount > 0) await credits.grantAddOn({ userId: id, amount, idempotencyKey: `grant:${id}` });
      return id;
    },
    async newGeneration(userId, slots, reserved) {
      const styles: NewSlot[] = Array.from({ length: slots }, (_, index) => ({ index, name: `Style ${index}`, prompt: null, backgroundType: 'studio' }));
      const generation = await generations.create({ userId, imageId: null, kind: 'smart', stage: null, request: {}, slots: styles });
      if (reserved > 0) await credits.reserve({ userId, generationId: generation.id, amount: reserved, idempotencyKey: `reserve:${generation.id}` });
      return generation.id;
    },
    async balance(userId) {
      const { subscriptionCredits, addOnCredits } = await credits.balance(userId);
      return subscriptionCredits + addOnCredits;
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
