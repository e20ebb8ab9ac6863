import type { MinimalJob } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { JOB_QUEUE, jobOptions, QUEUE_JOBS, QUEUE_NAMES, RETRY_BACKOFF_TYPE, retryBackoff } from './queues.js';

describe('the job → queue map', () => {
  it('puts each job on exactly one queue', () => {
    const listed = QUEUE_NAMES.flatMap((queue) => QUEUE_JOBS[queue]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('sends renders to render and quick calls to interactive', () => {
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
    });
  });
});

describe('retryBackoff', () => {
  const job = { opts: { backoff: { type: RETRY_BACKOFF_TYPE, delay: 100 } } } as unknown as MinimalJob;

  it('doubles the configured delay with each attempt, as BullMQ’s exponential backoff does', () => {
    expect([1, 2, 3, 4].map((attempts) => retryBackoff(attempts, RETRY_BACKOFF_TYPE, new Error('x'), job))).toEqual([100, 200, 400, 800]);
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
