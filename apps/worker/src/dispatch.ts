import { UnrecoverableError, type Job } from 'bullmq';
import type { JobName } from '@prodshot/contracts';
import type { WorkerDeps } from './deps.js';
import type { JobHandlers } from './handlers/index.js';

function isJobName(handlers: JobHandlers, name: string): name is JobName {
  return Object.hasOwn(handlers, name);
}

/** Routes a job to the handler of its name; an unknown name can never succeed, so it is not retried. */
export function createDispatcher(handlers: JobHandlers, deps: WorkerDeps) {
  return async (job: Job): Promise<unknown> => {
    if (!isJobName(handlers, job.name)) throw new UnrecoverableError(`No handler for job "${job.name}"`);
    // The name was checked above, so the job's data is that name's payload.
    const handler = handlers[job.name] as unknown as (job: Job, deps: WorkerDeps) => Promise<unknown>;
    return handler(job, deps);
  };
}
