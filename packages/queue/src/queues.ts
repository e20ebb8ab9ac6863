import type { DefaultJobOptions } from 'bullmq';

/**
 * Two queues so that quick interactive calls (prompt enhancement, style recommendations) never
 * wait behind renders. Operators scale workers per queue on each queue's wait list.
 */
export const QUEUE_NAMES = ['render', 'interactive'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** BullMQ job ids are derived from our rows (so a retry cannot enqueue twice) and may not contain ':'. */
export const jobIds = {
  generation: (generationId: string) => generationId,
  style: (generationId: string, index: number) => `${generationId}-style-${index}`,
  enhance: (requestId: string) => `enhance-${requestId}`,
};
