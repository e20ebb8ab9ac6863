import { Queue, QueueEvents, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobName, JobPayloads, JobResults } from '@prodshot/contracts';
import {
  DEFAULT_RETRY_POLICY,
  JOB_QUEUE,
  jobOptions,
  QUEUE_NAMES,
  webhookJobOptions,
  type QueueName,
  type RetryPolicy,
} from './queues.js';

export class JobTimeoutError extends Error {
  override readonly name = 'JobTimeoutError';
  constructor(
    readonly jobId: string,
    timeoutMs: number,
  ) {
    super(`Job ${jobId} did not finish within ${Math.round(timeoutMs / 1000)} s`);
  }
}

export class JobFailedError extends Error {
  override readonly name = 'JobFailedError';
}

/**
 * Enqueues typed jobs on the queue their name belongs to, and lets a caller wait for a result.
 * The API holds one; jobs carry ids derived from our rows so a retried request cannot enqueue twice.
 */
export class JobProducer {
  private readonly queues: Record<QueueName, Queue>;
  private events: Partial<Record<QueueName, QueueEvents>> = {};

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    /** QueueEvents block on Redis, so they get a consumer-style connection of their own. */
    private readonly eventsConnection: () => Redis,
    retryPolicy: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {
    this.queues = Object.fromEntries(
      QUEUE_NAMES.map((name) => [
        name,
        withManyWaiters(new Queue(name, { connection, prefix, defaultJobOptions: jobOptions(retryPolicy) })),
      ]),
    ) as Record<QueueName, Queue>;
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  async enqueue<K extends JobName>(
    name: K,
    payload: JobPayloads[K],
    options: JobsOptions & { jobId: string },
  ): Promise<string> {
    const job = await this.queues[JOB_QUEUE[name]].add(name, payload, options);
    return job.id ?? options.jobId;
  }

  /** One job per webhook delivery, on the webhook queue; a delivery already queued or being sent is left as it is. */
  async enqueueWebhookDeliveries(deliveryIds: string[]): Promise<void> {
    await Promise.all(
      deliveryIds.map((deliveryId) => this.enqueue('deliver-webhook', { deliveryId }, webhookJobOptions(deliveryId))),
    );
  }

  /** Waits for a job's result; a timeout leaves the job running, it only stops the waiting. */
  async waitFor<K extends JobName>(name: K, jobId: string, timeoutMs: number): Promise<JobResults[K]> {
    const queueName = JOB_QUEUE[name];
    const job = await this.queues[queueName].getJob(jobId);
    if (!job) throw new JobFailedError(`Job ${jobId} does not exist`);
    try {
      return (await job.waitUntilFinished(await this.queueEvents(queueName), timeoutMs)) as JobResults[K];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/timed out|timeout/i.test(message)) throw new JobTimeoutError(jobId, timeoutMs);
      throw new JobFailedError(message);
    }
  }

  async close(): Promise<void> {
    await Promise.all([
      ...Object.values(this.queues).map((q) => q.close()),
      ...Object.values(this.events).map((e) => e.close()),
    ]);
  }

  private async queueEvents(name: QueueName): Promise<QueueEvents> {
    let events = this.events[name];
    if (!events) {
      events = withManyWaiters(new QueueEvents(name, { connection: this.eventsConnection(), prefix: this.prefix }));
      this.events[name] = events;
      await events.waitUntilReady();
    }
    return events;
  }
}

/** Every synchronous request waiting on a job adds a listener; hundreds at once are normal, not a leak. */
function withManyWaiters<T extends { setMaxListeners(n: number): unknown }>(emitter: T): T {
  emitter.setMaxListeners(10_000);
  return emitter;
}
