import type { JobName, JobResults } from '@prodshot/contracts';
import { JobFailedError, JobTimeoutError, type JobProducer } from '@prodshot/queue';
import type { HttpError } from './http-error.js';

/** What a call answers when the wait for its job ends without a result: each call says it its own way. */
export interface JobWaitAnswers {
  /** The wait ran out; the job goes on. */
  timedOut: () => HttpError;
  /** The job failed. Left out when the caller reads the failure from what the job left behind. */
  failed?: (error: JobFailedError) => HttpError | Promise<HttpError>;
}

/**
 * The one way the API waits on a job it queued: its result, or the call's own error for a wait
 * that ran out or a job that failed. Without `failed`, a failed job answers null.
 */
export async function awaitJob<K extends JobName>(
  producer: Pick<JobProducer, 'waitFor'>,
  job: { name: K; id: string; waitMs: number },
  answers: Required<JobWaitAnswers>,
): Promise<JobResults[K]>;
export async function awaitJob<K extends JobName>(
  producer: Pick<JobProducer, 'waitFor'>,
  job: { name: K; id: string; waitMs: number },
  answers: JobWaitAnswers,
): Promise<JobResults[K] | null>;
export async function awaitJob<K extends JobName>(
  producer: Pick<JobProducer, 'waitFor'>,
  { name, id, waitMs }: { name: K; id: string; waitMs: number },
  answers: JobWaitAnswers,
): Promise<JobResults[K] | null> {
  try {
    return await producer.waitFor(name, id, waitMs);
  } catch (error) {
    if (error instanceof JobTimeoutError) throw answers.timedOut();
    if (!(error instanceof JobFailedError)) throw error;
    if (answers.failed) throw await answers.failed(error);
    return null;
  }
}
