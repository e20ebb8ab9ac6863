import { UnrecoverableError, type Job } from 'bullmq';
import { describe, expect, it, vi } from 'vitest';
import { EmptyImageError, ModelTimeoutError } from '@prodshot/imaging';
import { DEFAULT_RETRY_POLICY } from '@prodshot/queue';
import type { WorkerDeps } from './deps.js';
import { createDispatcher, JobDeadlineError, settleFailedJob } from './dispatch.js';
import type { JobHandlers } from './handlers/index.js';

const ATTEMPTS = DEFAULT_RETRY_POLICY.attempts;

/** A stand-in for BullMQ's job with the counts BullMQ really has at each point. */
function jobAt(attemptsMade: number, name = 'product-shot'): Job {
  return {
    name,
    id: 'job-1',
    data: { generationId: 'g', userId: 'u' },
    attemptsMade,
    opts: { attempts: ATTEMPTS },
  } as unknown as Job;
}

function handlersWith(run: () => Promise<unknown>) {
  const onFinalFailure = vi.fn(async () => {});
  const handlers = { 'product-shot': { run, onFinalFailure } } as unknown as JobHandlers;
  return { handlers, onFinalFailure };
}

const deps = {} as WorkerDeps;

describe('createDispatcher (inside the processor, attemptsMade counts the earlier attempts)', () => {
  it('settles only on the last attempt of a failing job', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => {
      throw new Error('model busy');
    });
    const dispatch = createDispatcher(handlers, deps, { deadlineMs: 60_000 });
    for (let earlier = 0; earlier < ATTEMPTS - 1; earlier += 1) {
      await expect(dispatch(jobAt(earlier))).rejects.toThrow('model busy');
      expect(onFinalFailure).not.toHaveBeenCalled();
    }
    await expect(dispatch(jobAt(ATTEMPTS - 1))).rejects.toThrow('model busy');
    expect(onFinalFailure).toHaveBeenCalledOnce();
  });

  it('settles at once, and stops retries, for an error that can never succeed', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => {
      throw new UnrecoverableError('bad input');
    });
    await expect(createDispatcher(handlers, deps, { deadlineMs: 60_000 })(jobAt(0))).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
    expect(onFinalFailure).toHaveBeenCalledOnce();
  });

  it('never settles a job that succeeds, even on its last attempt', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => ({ generationId: 'g' }));
    await expect(createDispatcher(handlers, deps, { deadlineMs: 60_000 })(jobAt(ATTEMPTS - 1))).resolves.toEqual({
      generationId: 'g',
    });
    expect(onFinalFailure).not.toHaveBeenCalled();
  });
});

describe('settleFailedJob (in the failed event, attemptsMade already counts the failed attempt)', () => {
  it('leaves a failure BullMQ will retry alone, including the one before the last', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => undefined);
    for (let made = 1; made < ATTEMPTS; made += 1)
      await settleFailedJob(handlers, deps, jobAt(made), new Error('model busy'));
    expect(onFinalFailure).not.toHaveBeenCalled();
  });

  it('settles once the retries are spent, and for a job that stalled too often', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => undefined);
    await settleFailedJob(handlers, deps, jobAt(ATTEMPTS), new Error('model busy'));
    await settleFailedJob(handlers, deps, jobAt(1), new Error('job stalled more than allowable limit'));
    expect(onFinalFailure).toHaveBeenCalledTimes(2);
  });

  it('ignores jobs it has no handler for', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => undefined);
    await settleFailedJob(handlers, deps, jobAt(ATTEMPTS, 'retired-job'), new Error('x'));
    expect(onFinalFailure).not.toHaveBeenCalled();
  });
});

describe('the job deadline', () => {
  it('fails an attempt that never returns, as a retryable failure, and settles it on the last attempt', async () => {
    const { handlers, onFinalFailure } = handlersWith(() => new Promise(() => {}));
    const dispatch = createDispatcher(handlers, deps, { deadlineMs: 50 });
    await expect(dispatch(jobAt(0))).rejects.toBeInstanceOf(JobDeadlineError);
    expect(onFinalFailure).not.toHaveBeenCalled();
    await expect(dispatch(jobAt(ATTEMPTS - 1))).rejects.toBeInstanceOf(JobDeadlineError);
    expect(onFinalFailure).toHaveBeenCalledOnce();
  });
});

describe('what the dispatcher tells BullMQ', () => {
  it('fails a job it has no handler for without retrying it', async () => {
    const { handlers } = handlersWith(async () => undefined);
    const error = await createDispatcher(handlers, deps, { deadlineMs: 1_000 })(jobAt(0, 'retired-job')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toBe('No handler for job "retired-job"');
  });

  it('turns an input that can never work into an unrecoverable failure, settled at once, keeping its message', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => {
      throw new EmptyImageError();
    });
    const error = await createDispatcher(handlers, deps, { deadlineMs: 1_000 })(jobAt(0)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toBe(new EmptyImageError().message);
    expect(onFinalFailure).toHaveBeenCalledWith(
      { generationId: 'g', userId: 'u' },
      new EmptyImageError().message,
      deps,
    );
  });

  it('retries a model that timed out like any other failure', async () => {
    const { handlers, onFinalFailure } = handlersWith(async () => {
      throw new ModelTimeoutError('local', 1_000);
    });
    const error = await createDispatcher(handlers, deps, { deadlineMs: 1_000 })(jobAt(0)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(onFinalFailure).not.toHaveBeenCalled();
  });

  it('names the job and its deadline when an attempt runs out of time', async () => {
    const { handlers } = handlersWith(() => new Promise(() => {}));
    const error = await createDispatcher(handlers, deps, { deadlineMs: 20 })(jobAt(0)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'JobDeadlineError', message: 'product-shot did not finish within 20 ms' });
  });

  it('fails a job whose handler has nothing to settle with the job’s own error', async () => {
    const handlers = {
      'product-shot': { run: async () => Promise.reject(new Error('busy')) },
    } as unknown as JobHandlers;
    await expect(createDispatcher(handlers, deps, { deadlineMs: 1_000 })(jobAt(ATTEMPTS - 1))).rejects.toThrow('busy');
    await expect(settleFailedJob(handlers, deps, jobAt(ATTEMPTS), new Error('busy'))).resolves.toBeUndefined();
  });
});
