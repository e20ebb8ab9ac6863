import { Queue, Worker, type Job } from 'bullmq';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { uniqueQueuePrefix } from '@prodshot/testing';
import {
  createRedisConnection,
  generationOrder,
  jobOptions,
  JobProducer,
  pingRedis,
  QUEUE_ORDER,
  type QueueName,
} from './index.js';

const stack = inject('stack');
const producer = createRedisConnection(stack.redisUrl, 'producer', 'test-producer');
const consumer = createRedisConnection(stack.redisUrl, 'consumer', 'test-consumer');

afterAll(async () => {
  await Promise.all([producer.quit(), consumer.quit()]);
});

/** The ids of the first `count` jobs a worker of concurrency 1 takes from `queue`, in the order it takes them. */
async function takenInOrder(queue: QueueName, prefix: string, count: number): Promise<string[]> {
  const taken: string[] = [];
  let allTaken: () => void = () => {};
  const all = new Promise<void>((resolve) => (allTaken = resolve));
  const worker = new Worker(
    queue,
    async (job) => {
      taken.push(job.id!);
      if (taken.length === count) allTaken();
    },
    { connection: consumer, prefix, concurrency: 1 },
  );
  await all;
  await worker.close();
  return taken;
}

describe('queue on real Redis', () => {
  it('pings Redis', async () => {
    await expect(pingRedis(producer)).resolves.toBeUndefined();
  });

  it('delivers a job from a producer to a worker and back', async () => {
    const prefix = uniqueQueuePrefix();
    const queue = new Queue('render', { connection: producer, prefix, defaultJobOptions: jobOptions() });
    const done = new Promise<Job>((resolve) => {
      const worker: Worker = new Worker('render', async (job) => ({ doubled: (job.data as { n: number }).n * 2 }), {
        connection: consumer,
        prefix,
      });
      worker.on('completed', (job) => {
        resolve(job);
        void worker.close();
      });
    });
    await queue.add('double', { n: 21 });
    const job = await done;
    expect(job.returnvalue).toEqual({ doubled: 42 });
    await queue.close();
  });

  it('keeps queues with different prefixes apart', async () => {
    const a = new Queue('render', { connection: producer, prefix: uniqueQueuePrefix() });
    const b = new Queue('render', { connection: producer, prefix: uniqueQueuePrefix() });
    await a.add('only-in-a', {});
    expect(await a.getWaitingCount()).toBe(1);
    expect(await b.getWaitingCount()).toBe(0);
    await Promise.all([a.obliterate({ force: true }), a.close(), b.close()]);
  });

  it("hands a Pro seller's job to a worker before Starter jobs queued earlier, and backfill after both, keeping sellers' jobs in the wait list", async () => {
    const prefix = uniqueQueuePrefix();
    const jobs = new JobProducer(producer, prefix, () =>
      createRedisConnection(stack.redisUrl, 'consumer', 'test-events'),
    );
    const shot = (userId: string) => ({
      generationId: userId,
      userId,
      imageId: 'i',
      sourceKey: 'k',
      count: 1,
      upscaleImageFirst: false,
      size: 1024 as const,
    });
    await jobs.enqueue(
      'make-renditions',
      { key: 'old.png', owner: { kind: 'image', id: 'old' } },
      { jobId: 'backfill', ...QUEUE_ORDER.backfill },
    );
    for (const id of ['starter-1', 'starter-2'])
      await jobs.enqueue('product-shot', shot(id), { jobId: id, ...generationOrder('starter') });
    await jobs.enqueue('product-shot', shot('growth-1'), { jobId: 'growth-1', ...generationOrder('growth') });
    await jobs.enqueue('product-shot', shot('pro-1'), { jobId: 'pro-1', ...generationOrder('pro') });
    // The wait list is what KEDA scales workers on: every seller's job is counted there.
    expect(await jobs.queue('render').getJobCounts('waiting', 'prioritized')).toEqual({ waiting: 4, prioritized: 1 });

    expect(await takenInOrder('render', prefix, 5)).toEqual([
      'pro-1',
      'starter-1',
      'starter-2',
      'growth-1',
      'backfill',
    ]);
    await jobs.queue('render').obliterate({ force: true });
    await jobs.close();
  });

  it("hands an account with nothing its analyses and recommendations only after every paying seller's, queued earlier or not", async () => {
    const prefix = uniqueQueuePrefix();
    const jobs = new JobProducer(producer, prefix, () =>
      createRedisConnection(stack.redisUrl, 'consumer', 'test-events'),
    );
    const analysis = (userId: string) => ({ userId, imageId: userId, sourceKey: 'k', shotSize: 1024 as const });
    const recommendation = (userId: string) => ({
      generationId: userId,
      userId,
      imageId: 'i',
      sourceKey: 'k',
      mode: 'client' as const,
      size: 1024 as const,
    });
    await jobs.enqueue('analyse-upload', analysis('free-analysis'), {
      jobId: 'free-analysis',
      ...QUEUE_ORDER.freeAccount,
    });
    await jobs.enqueue('style-recommendation', recommendation('free-recommendation'), {
      jobId: 'free-recommendation',
      ...QUEUE_ORDER.freeAccount,
    });
    await jobs.enqueue('analyse-upload', analysis('paying-analysis'), {
      jobId: 'paying-analysis',
      ...QUEUE_ORDER.standard,
    });
    await jobs.enqueue('style-recommendation', recommendation('starter-recommendation'), {
      jobId: 'starter-recommendation',
      ...generationOrder('starter'),
    });
    await jobs.enqueue('style-recommendation', recommendation('pro-recommendation'), {
      jobId: 'pro-recommendation',
      ...generationOrder('pro'),
    });
    // Paying sellers' jobs stay in the wait list KEDA scales on; free ones wait in the prioritized set, which it counts too.
    expect(await jobs.queue('interactive').getJobCounts('waiting', 'prioritized')).toEqual({
      waiting: 3,
      prioritized: 2,
    });

    expect(await takenInOrder('interactive', prefix, 5)).toEqual([
      'pro-recommendation',
      'paying-analysis',
      'starter-recommendation',
      'free-analysis',
      'free-recommendation',
    ]);
    await jobs.queue('interactive').obliterate({ force: true });
    await jobs.close();
  });

  it('fails fast for a producer when Redis is unreachable', async () => {
    const dead = createRedisConnection('redis://127.0.0.1:1', 'producer', 'dead');
    dead.on('error', () => {});
    await expect(pingRedis(dead, 1_000)).rejects.toThrow();
    dead.disconnect();
  });
});
