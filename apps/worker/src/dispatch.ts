import { UnrecoverableError, type Job } from 'bullmq';
import pTimeout from 'p-timeout';
import type { JobName } from '@prodshot/contracts';
import { isImagingError } from '@prodshot/imaging';
import type { WorkerDeps } from './deps.js';
import type { JobHandler, JobHandlers } from './handlers/index.js';
import { userMessage } from './pipeline/slot-lifecycle.js';

function isJobName(handlers: JobHandlers, name: string): name is JobName {
  return Object.hasOwn(handlers, name);
}

function handlerFor(handlers: JobHandlers, job: Job): JobHandler<JobName> {
  if (!isJobName(handlers, job.name)) throw new UnrecoverableError(`No handler for job "${job.name}"`);
  // The name was checked above, so the job's data is that name's payload.
  return handlers[job.name] as unknown as JobHandler<JobName>;
}

/** A bad input fails the same way every time: retrying it only burns time. */
function isPermanent(error: unknown): boolean {
  return error instanceof UnrecoverableError || (isImagingError(error) && !error.retryable);
}

/**
 * BullMQ counts an attempt as made once it has finished: inside the processor `attemptsMade` is the
 * number of earlier attempts, and by the time the `failed` event fires it includes the one that
 * just failed. The two places ask the same question with these two counts.
 */
export function isLastAttemptRunning(job: Pick<Job, 'attemptsMade' | 'opts'>): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

export function wereRetriesSpent(job: Pick<Job, 'attemptsMade' | 'opts'>): boolean {
  return job.attemptsMade >= (job.opts.attempts ?? 1);
}

/** An attempt that outlived its deadline: something it waited on never answered. Retried like any other failure. */
export class JobDeadlineError extends Error {
  override readonly name = 'JobDeadlineError';
  constructor(jobName: string, deadlineMs: number) {
    super(`${jobName} did not finish within ${deadlineMs} ms`);
  }
}

/**
 * Routes a job to its handler, bounded by a deadline. On the last failure (retries spent, or an
 * input that can never work) the handler settles its slots and refunds before the job is marked
 * failed.
 */
export function createDispatcher(handlers: JobHandlers, deps: WorkerDeps, { deadlineMs }: { deadlineMs: number }) {
  return async (job: Job): Promise<unknown> => {
    const handler = handlerFor(handlers, job);
    try {
      return await pTimeout(handler.run(job as Job<never, never>, deps), {
        milliseconds: deadlineMs,
        message: new JobDeadlineError(job.name, deadlineMs),
      });
    } catch (error) {
      const permanent = isPermanent(error);
      if (permanent || isLastAttemptRunning(job)) {
        await handler.onFinalFailure?.(job.data as never, userMessage(error), deps);
      }
      if (permanent && !(error instanceof UnrecoverableError)) {
        throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
      }
      throw error;
    }
  };
}

/**
 * For jobs that failed outside the processor (stalled too often after worker crashes): the same
 * idempotent settle-and-refund, run by whichever worker sees the failure.
 */
export async function settleFailedJob(handlers: JobHandlers, deps: WorkerDeps, job: Job, error: Error): Promise<void> {
  if (!isJobName(handlers, job.name)) return;
  if (!isPermanent(error) && !wereRetriesSpent(job) && !/stalled/i.test(error.message)) return;
  await handlerFor(handlers, job).onFinalFailure?.(job.data as never, userMessage(error), deps);
}
