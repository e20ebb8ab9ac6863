import type { Config } from '@prodshot/config';
import type { JobName, JobPayloads } from '@prodshot/contracts';
import { JOB_QUEUE, type JobProducer } from '@prodshot/queue';

/** A purge run deletes up to 20 × 100 generations and as many uploads; the next run goes on. */
export const HISTORY_PURGE_BATCHES: JobPayloads['purge-expired-history'] = { batchSize: 100, maxBatches: 20 };

/**
 * The fleet's repeatable jobs. Every worker upserts them at start under the job's own name as the
 * scheduler id, so BullMQ keeps one schedule each and runs it once per interval however many
 * replicas start (or restart).
 */
export async function scheduleRepeatableJobs(producer: JobProducer, config: Config): Promise<void> {
  await repeat(producer, 'sweep-stale-generations', config.worker.sweeper.intervalMs, {
    staleAfterMs: config.worker.sweeper.staleAfterMs,
  });
  await repeat(producer, 'purge-expired-history', config.worker.historyPurgeIntervalMs, HISTORY_PURGE_BATCHES);
}

async function repeat<K extends JobName>(
  producer: JobProducer,
  name: K,
  every: number,
  data: JobPayloads[K],
): Promise<void> {
  await producer.queue(JOB_QUEUE[name]).upsertJobScheduler(name, { every }, { name, data });
}
