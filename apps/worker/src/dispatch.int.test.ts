import { Queue, Worker, type Job } from 'bullmq';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '@prodshot/config';
import { ModelRateLimitedError } from '@prodshot/imaging';
import { createRedisConnection, jobOptions, WORKER_SETTINGS } from '@prodshot/queue';
import { uniqueQueuePrefix } from '@prodshot/testing';
import type { WorkerDeps } from './deps.js';
import { createDispatcher, settleFailedJob } from './dispatch.js';
import type { JobHandlers } from './handlers/index.js';

const stack = inject('stack');
const producer = createRedisConnection(stack.redisUrl, 'producer', 'dispatch-test-producer');
const consumer = createRedisConnection(stack.redisUrl, 'consumer', 'dispatch-test-consumer');
afterAll(async () => {
  await Promise.all([producer.quit(), consumer.quit()]);
});

/** The shipped default, so the test counts what production counts. */
const ATTEMPTS = loadConfig({}).jobs.attempts;

/**
 * Runs one job through a real BullMQ worker wired as main.ts wires it (the dispatcher in the
 * processor, settleFailedJob on `failed`, our backoff), with a handler that fails its first
 * `failures` attempts, throwing what `failure` makes.
 */
async function runJob(
  failures: number,
  failure: (attempt: number) => Error = (attempt) => new Error(`attempt ${attempt} failed`),
) {
  const prefix = uniqueQueuePrefix();
  const ran: number[] = [];
  const startedAt: number[] = [];
  const settledAfter: number[] = [];
  const handlers = {
    'product-shot': {
      async run(job: Job) {
        ran.push(job.attemptsMade + 1);
        startedAt.push(Date.now());
        if (ran.length <= failures) throw failure(ran.length);
        return { generationId: 'g' };
      },
      async onFinalFailure() {
        settledAfter.push(ran.length);
      },
    },
  } as unknown as JobHandlers;
  const deps = {} as WorkerDeps;
  const queue = new Queue('render', {
    connection: producer,
    prefix,
    defaultJobOptions: jobOptions({ attempts: ATTEMPTS, backoffMs: 10 }),
  });
  const worker = new Worker('render', createDispatcher(handlers, deps, { deadlineMs: 60_000 }), {
    connection: consumer,
    prefix,
    settings: WORKER_SETTINGS,
  });
  const finished = new Promise<'completed' | 'failed'>((resolve) => {
    worker.on('completed', () => resolve('completed'));
    worker.on('failed', (job, error) => {
      if (!job) return;
      void settleFailedJob(handlers, deps, job, error).then(() => {
        if (job.finishedOn) resolve('failed');
      });
    });
  });
  await queue.add('product-shot', {});
  const outcome = await finished;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return { outcome, ran, startedAt, settledAfter };
}

describe('retries with the shipped JOB_ATTEMPTS', () => {
  it('settles a job that always fails once, after its last attempt', async () => {
    const { outcome, ran, settledAfter } = await runJob(Infinity);
    expect(outcome).toBe('failed');
    expect(ran).toHaveLength(ATTEMPTS);
    // Once in the processor's last attempt and once more (idempotently) from the failed event.
    expect(settledAfter.every((attempts) => attempts === ATTEMPTS)).toBe(true);
    expect(settledAfter.length).toBeGreaterThan(0);
  });

  it('never settles (or refunds) a job that succeeds on its last attempt', async () => {
    const { outcome, ran, settledAfter } = await runJob(ATTEMPTS - 1);
    expect(outcome).toBe('completed');
    expect(ran).toEqual(Array.from({ length: ATTEMPTS }, (_, n) => n + 1));
    expect(settledAfter).toEqual([]);
  });
});

describe('a provider’s Retry-After', () => {
  it('holds the next attempt back at least that long, though the backoff alone would retry within milliseconds', async () => {
    const retryAfterMs = 1_500;
    const { outcome, startedAt } = await runJob(1, () => new ModelRateLimitedError('openai', { retryAfterMs }));
    expect(outcome).toBe('completed');
    expect(startedAt).toHaveLength(2);
    expect(startedAt[1]! - startedAt[0]!).toBeGreaterThanOrEqual(retryAfterMs);
  });

  it('leaves a failure without one to the exponential backoff', async () => {
    const { startedAt } = await runJob(1);
    expect(startedAt[1]! - startedAt[0]!).toBeLessThan(1_000);
  });
});
