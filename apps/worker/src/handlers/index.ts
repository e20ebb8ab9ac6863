import type { Job } from 'bullmq';
import type { JobName, JobPayloads } from '@prodshot/contracts';
import type { WorkerDeps } from '../deps.js';

export type JobHandler<K extends JobName> = (job: Job<JobPayloads[K]>, deps: WorkerDeps) => Promise<unknown>;

/** One handler per job name; a job name in contracts without a handler here does not compile. */
export type JobHandlers = { [K in JobName]: JobHandler<K> };

export const handlers: JobHandlers = {};
