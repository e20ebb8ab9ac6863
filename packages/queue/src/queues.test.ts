import type { MinimalJob } from 'bullmq';
import { describe, expect, it } from 'vitest';
import {
  JOB_QUEUE,
  jobOptions,
  QUEUE_JOBS,
  QUEUE_NAMES,
  RETRY_BACKOFF_TYPE,
  retryBackoff,
  WEBHOOK_RETRY,
  webhookAttempts,
  webhookJobOptions,
  webhookRetryDelay,
  WORKER_SETTINGS,
} from './queues.js';

describe('the job → queue map', () => {
  it('puts each job on exactly one queue', () => {
    const listed = QUEUE_NAMES.flatMap((queue) => QUEUE_JOBS[queue]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('sends renders to render, quick calls to interactive and webhook deliveries to a queue of their own', () => {
    expect(JOB_QUEUE).toEqual({
      'product-shot': 'render',
      'style-recommendation': 'interactive',
      'style-shot': 'render',
      'remove-background': 'render',
      'generate-background': 'render',
      'enhance-prompt': 'interactive',
      'analyse-upload': 'interactive',
      'make-outline': 'interactive',
      'make-renditions': 'render',
      'sweep-stale-generations': 'interactive',
      'purge-expired-history': 'interactive',
      'export-shot': 'render',
      'compliance-check': 'render',
      'deliver-webhook': 'webhooks',
    });
  });
});

describe('retryBackoff', () => {
  const job = { opts: { backoff: { type: RETRY_BACKOFF_TYPE, delay: 100 } } } as unknown as MinimalJob;

  it('doubles the configured delay with each attempt, as BullMQ’s exponential backoff does', () => {
    expect([1, 2, 3, 4].map((attempts) => retryBackoff(attempts, RETRY_BACKOFF_TYPE, new Error('x'), job))).toEqual([
      100, 200, 400, 800,
    ]);
  });

  it('waits at least the Retry-After an error carries, and no longer than the backoff when that is longer', () => {
    const limited = Object.assign(new Error('busy'), { retryAfterMs: 5_000 });
    expect(retryBackoff(1, RETRY_BACKOFF_TYPE, limited, job)).toBe(5_000);
    expect(retryBackoff(8, RETRY_BACKOFF_TYPE, limited, job)).toBe(12_800);
  });

  it('is the backoff every job is given', () => {
    expect(jobOptions({ attempts: 3, backoffMs: 250 }).backoff).toEqual({ type: RETRY_BACKOFF_TYPE, delay: 250 });
  });
});

describe('webhook retries', () => {
  const strategy = WORKER_SETTINGS.backoffStrategy!;

  it('wait 30 s, then twice as long each time, never more than 2 h', () => {
    expect([1, 2, 3, 8, 9, 15].map((attempts) => webhookRetryDelay(attempts))).toEqual([
      30_000, 60_000, 120_000, 3_840_000, 7_200_000, 7_200_000,
    ]);
  });

  it('go on for 24 h and no attempt longer', () => {
    const attempts = webhookAttempts();
    const waits = (made: number) =>
      Array.from({ length: made }, (_, i) => webhookRetryDelay(i + 1)).reduce((a, b) => a + b, 0);
    expect(waits(attempts - 1)).toBeGreaterThanOrEqual(WEBHOOK_RETRY.windowMs);
    expect(waits(attempts - 2)).toBeLessThan(WEBHOOK_RETRY.windowMs);
  });

  it("are what the workers' backoff strategy answers for a delivery's job, and leave other jobs' backoff alone", () => {
    const delivery = { opts: webhookJobOptions('d-1') } as unknown as MinimalJob;
    expect(webhookJobOptions('d-1')).toMatchObject({ jobId: 'd-1', attempts: webhookAttempts() });
    expect(strategy(3, 'webhook', new Error('x'), delivery)).toBe(120_000);
    const other = { opts: { backoff: { type: RETRY_BACKOFF_TYPE, delay: 100 } } } as unknown as MinimalJob;
    expect(strategy(3, RETRY_BACKOFF_TYPE, new Error('x'), other)).toBe(400);
  });
});
