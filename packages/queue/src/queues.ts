import type { DefaultJobOptions } from 'bullmq';
import { planAllows, type PlanId } from '@prodshot/contracts';

/**
 * Two queues so that quick interactive calls (prompt enhancement, style recommendations) never
 * wait behind renders. Operators scale workers per queue on each queue's wait list.
 */
export const QUEUE_NAMES = ['render', 'interactive'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

/** Retries ride out short outages (a Postgres restart, a busy model) before a job fails for good and is refunded. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, backoffMs: 2_000 };

export function jobOptions(policy: RetryPolicy = DEFAULT_RETRY_POLICY): DefaultJobOptions {
  return {
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** BullMQ job ids are derived from our rows (so a retry cannot enqueue twice) and may not contain ':'. */
export const jobIds = {
  generation: (generationId: string) => generationId,
  style: (generationId: string, index: number) => `${generationId}-style-${index}`,
  enhance: (requestId: string) => `enhance-${requestId}`,
  /** One analysis per upload: asking again while it runs (or after) adds nothing. */
  analyseUpload: (imageId: string) => `analyse-${imageId}`,
  /** One per image or output row: every list that shows it before they exist asks again, and adds nothing. */
  renditions: (ownerId: string) => `renditions-${ownerId}`,
};

/**
 * Every BullMQ priority we use, in one table. BullMQ takes jobs without a priority (its wait list:
 * upload analysis, the sweeper) before any prioritized job, then the lowest number first, first in,
 * first out within a number. The gaps leave room: a batch tier (bulk work no seller watches) belongs
 * between `standard` and `backfill`, below every seller's interactive work.
 */
export const JOB_PRIORITY = {
  /** Generations of sellers whose plan includes priority processing (Pro). */
  priorityProcessing: 1,
  /** Every other seller's generations. */
  standard: 10,
  /** Renditions of images stored before renditions existed: after everything a seller asked for. */
  backfill: 1_000,
} as const;

/** The priority a seller's generation jobs run at, by the plan in effect when they asked. */
export function generationPriority(plan: PlanId): number {
  return planAllows(plan, 'priorityProcessing') ? JOB_PRIORITY.priorityProcessing : JOB_PRIORITY.standard;
}
