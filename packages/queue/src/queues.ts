import { createHash } from 'node:crypto';
import type { AdvancedOptions, BackoffStrategy, DefaultJobOptions, JobsOptions } from 'bullmq';
import { planAllows, type JobName, type PlanId } from '@prodshot/contracts';

/**
 * Two queues so that quick interactive calls (prompt enhancement, style recommendations) never
 * wait behind renders. Operators scale workers per queue on each queue's wait list. Webhook
 * deliveries have a third: a receiver that answers slowly or never holds only webhook lanes.
 */
export const QUEUE_NAMES = ['render', 'interactive', 'webhooks'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Which jobs each queue takes: pixels on `render`, quick calls a seller waits on (and light upkeep) on `interactive`. */
export const QUEUE_JOBS = {
  render: [
    'product-shot',
    'style-shot',
    'remove-background',
    'generate-background',
    // Decoding a 4096 px shot is render work; enqueued at low priority, it waits for sellers' own renders.
    'make-renditions',
    // Both decode and compose full-size pixels while a seller waits: render work, never in the API.
    'export-shot',
    'compliance-check',
  ],
  interactive: [
    'style-recommendation',
    'enhance-prompt',
    'analyse-upload',
    // The seller waits on the screen for the outline of their tap.
    'make-outline',
    'sweep-stale-generations',
    // Storage deletes, not CPU: it never holds a render slot.
    'purge-expired-history',
  ],
  webhooks: ['deliver-webhook'],
} as const satisfies Record<QueueName, readonly JobName[]>;

type QueuedJob = (typeof QUEUE_JOBS)[QueueName][number];

/** The queue each job goes on, derived from QUEUE_JOBS; typed over every job name, so a job on no queue does not compile. */
export const JOB_QUEUE: Readonly<Record<JobName, QueueName>> = Object.fromEntries(
  QUEUE_NAMES.flatMap((queue) => QUEUE_JOBS[queue].map((name) => [name, queue])),
) as Record<QueuedJob, QueueName>;

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

/** Retries ride out short outages (a Postgres restart, a busy model) before a job fails for good and is refunded. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, backoffMs: 2_000 };

/** Our backoff's name in job options; BullMQ looks it up in the worker's `settings` (WORKER_SETTINGS). */
export const RETRY_BACKOFF_TYPE = 'exponential-or-retry-after';

/**
 * BullMQ's exponential backoff, but never sooner than the wait a provider asked for: an engine error
 * carries its Retry-After as `retryAfterMs` (across the engine thread too), and retrying earlier
 * only spends an attempt on another 429.
 */
export const retryBackoff: BackoffStrategy = (attemptsMade, _type, error, job) => {
  const backoff = job?.opts.backoff;
  const delay =
    typeof backoff === 'object'
      ? (backoff.delay ?? DEFAULT_RETRY_POLICY.backoffMs)
      : (backoff ?? DEFAULT_RETRY_POLICY.backoffMs);
  const exponential = Math.round(2 ** (attemptsMade - 1) * delay);
  const asked = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof asked === 'number' ? Math.max(exponential, asked) : exponential;
};

/** Our webhook backoff's name in job options. */
export const WEBHOOK_BACKOFF_TYPE = 'webhook';

/** A delivery is tried again after 30 s, then twice as long each time up to 2 h between tries, for 24 h. */
export const WEBHOOK_RETRY = { firstDelayMs: 30_000, maxDelayMs: 2 * 3600_000, windowMs: 24 * 3600_000 } as const;

/** The wait after the `attemptsMade`-th failed attempt of a delivery. */
export function webhookRetryDelay(attemptsMade: number, firstDelayMs: number = WEBHOOK_RETRY.firstDelayMs): number {
  return Math.min(firstDelayMs * 2 ** (attemptsMade - 1), WEBHOOK_RETRY.maxDelayMs);
}

/** Attempts in all: as many as the waits between them take to cover the retry window. */
export function webhookAttempts(firstDelayMs: number = WEBHOOK_RETRY.firstDelayMs): number {
  let attempts = 1;
  for (let waited = 0; waited < WEBHOOK_RETRY.windowMs; attempts += 1)
    waited += webhookRetryDelay(attempts, firstDelayMs);
  return attempts;
}

/**
 * One delivery's job. Its id is the delivery's, so an event is never being sent twice at once; it
 * leaves Redis when done (the row keeps the record), so "Send again" can add it anew. `firstDelayMs`
 * is for tests.
 */
export function webhookJobOptions(
  deliveryId: string,
  firstDelayMs: number = WEBHOOK_RETRY.firstDelayMs,
): JobsOptions & { jobId: string } {
  return {
    jobId: deliveryId,
    attempts: webhookAttempts(firstDelayMs),
    backoff: { type: WEBHOOK_BACKOFF_TYPE, delay: firstDelayMs },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

const backoffStrategy: BackoffStrategy = (attemptsMade, type, error, job) => {
  if (type !== WEBHOOK_BACKOFF_TYPE) return retryBackoff(attemptsMade, type, error, job);
  const backoff = job?.opts.backoff;
  return webhookRetryDelay(attemptsMade, typeof backoff === 'object' ? backoff.delay : undefined);
};

/** Every BullMQ Worker on our queues needs these: without the strategy a failed job's retry cannot be scheduled. */
export const WORKER_SETTINGS: AdvancedOptions = { backoffStrategy };

export function jobOptions(policy: RetryPolicy = DEFAULT_RETRY_POLICY): DefaultJobOptions {
  return {
    attempts: policy.attempts,
    backoff: { type: RETRY_BACKOFF_TYPE, delay: policy.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** BullMQ job ids are derived from our rows (so a retry cannot enqueue twice) and may not contain ':'. */
export const jobIds = {
  /**
   * The job a generation starts with (its only one, but for a smart generation's style-shots) has
   * the generation's own id, so the sweeper and a retried request find it from the generation alone.
   */
  generation: (generationId: string) => generationId,
  /** A retried style is a new job (the failed one stays in Redis for a week under its own id). */
  style: (generationId: string, index: number, attempt = 0) =>
    `${generationId}-style-${index}${attempt === 0 ? '' : `-retry-${attempt}`}`,
  enhance: (requestId: string) => `enhance-${requestId}`,
  /** One analysis per upload: asking again while it runs (or after) adds nothing. */
  analyseUpload: (imageId: string) => `analyse-${imageId}`,
  outline: (requestId: string) => `outline-${requestId}`,
  /** One per image or output row: every list that shows it before they exist asks again, and adds nothing. */
  renditions: (ownerId: string) => `renditions-${ownerId}`,
  /** One export or compliance check per shot and what is asked of it: asking again joins the job already made. */
  fileWork: (name: 'export-shot' | 'compliance-check', identity: string) =>
    `${name}-${createHash('sha256').update(identity).digest('hex').slice(0, 40)}`,
};

/**
 * The order BullMQ hands jobs out in, as job options: one table for every producer. Sellers' work
 * stays in each queue's wait list, the list KEDA scales workers on (infra/k8s/worker.yaml) and
 * `prodshot_queue_jobs{state="waiting"}` counts. BullMQ takes that list first, from its head, and
 * only then prioritized jobs, lowest number first. So priority processing is the head of the wait
 * list (`lifo`) rather than a priority number. Work no seller waits on at the screen goes after the
 * wait list by a priority number, which moves it into BullMQ's prioritized set: the autoscaler and
 * `prodshot_queue_jobs{state="prioritized"}` count that set too (infra/k8s/worker.yaml).
 */
export const QUEUE_ORDER = {
  /** Generations of sellers whose plan includes priority processing (Pro): ahead of every waiting job, the latest first. */
  priorityProcessing: { lifo: true },
  /** Every other seller's generations, upload analysis and the sweeper: first in, first out. */
  standard: {},
  /**
   * A prompt enhancement: a few milliseconds of text a seller waits on at the screen, taken before
   * the upload analyses and recommendations waiting in the interactive queue (seconds of cutout each).
   */
  prompt: { lifo: true },
  /**
   * A batch's photos (every plan's): after every single shot a seller waits on, so one seller's 20
   * photos never hold up another's one; before the backfill.
   */
  batch: { priority: 100 },
  /**
   * Engine work of an account with no plan and no credits (its daily free analyses and style
   * recommendations, apps/api/src/services/billing/free-allowance.ts): after every paying seller's job,
   * their batches included, so free use never slows a paying seller down; before the backfill.
   */
  freeAccount: { priority: 500 },
  /** Renditions of images stored before renditions existed: after everything a seller asked for. */
  backfill: { priority: 1_000 },
} as const satisfies Record<string, Pick<JobsOptions, 'lifo' | 'priority'>>;

export type QueueOrder = Pick<JobsOptions, 'lifo' | 'priority'>;

/** Where a seller's generation jobs go in the queue, by the plan in effect when they asked. */
export function generationOrder(plan: PlanId): QueueOrder {
  return planAllows(plan, 'priorityProcessing') ? QUEUE_ORDER.priorityProcessing : QUEUE_ORDER.standard;
}

/** The place of a job that another job enqueues on its behalf (a smart generation's style-shots). */
export function sameOrder(opts: QueueOrder): QueueOrder {
  return { ...(opts.lifo ? { lifo: true } : {}), ...(opts.priority ? { priority: opts.priority } : {}) };
}
