import type { Job } from 'bullmq';
import type { JobName, JobPayloads, JobResults } from '@prodshot/contracts';
import type { WorkerDeps } from '../deps.js';
import { analyseUpload } from './analyse-upload.js';
import { complianceCheck } from './compliance-check.js';
import { deliverWebhook } from './deliver-webhook.js';
import { enhancePrompt } from './enhance-prompt.js';
import { exportShot } from './export-shot.js';
import { generateBackground } from './generate-background.js';
import { makeOutlineJob } from './make-outline.js';
import { makeRenditions } from './make-renditions.js';
import { productShot } from './product-shot.js';
import { purgeExpiredHistory } from './purge-expired-history.js';
import { removeBackground } from './remove-background.js';
import { styleRecommendation } from './style-recommendation.js';
import { styleShot } from './style-shot.js';
import { sweepStaleGenerations } from './sweep-stale-generations.js';

export interface JobHandler<K extends JobName> {
  run(job: Job<JobPayloads[K], JobResults[K]>, deps: WorkerDeps): Promise<JobResults[K]>;
  /** Once the job has failed for good (retries spent or unrecoverable): settle its slots and refund. */
  onFinalFailure?(payload: JobPayloads[K], message: string, deps: WorkerDeps): Promise<void>;
}

/** One handler per job name; a job name in contracts without a handler here does not compile. */
export type JobHandlers = { [K in JobName]: JobHandler<K> };

export const handlers: JobHandlers = {
  'product-shot': productShot,
  'style-recommendation': styleRecommendation,
  'style-shot': styleShot,
  'remove-background': removeBackground,
  'generate-background': generateBackground,
  'enhance-prompt': enhancePrompt,
  'analyse-upload': analyseUpload,
  'make-outline': makeOutlineJob,
  'make-renditions': makeRenditions,
  'sweep-stale-generations': sweepStaleGenerations,
  'purge-expired-history': purgeExpiredHistory,
  'export-shot': exportShot,
  'compliance-check': complianceCheck,
  'deliver-webhook': deliverWebhook,
};
