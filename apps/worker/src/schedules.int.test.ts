import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '@prodshot/config';
import { createRedisConnection, JobProducer } from '@prodshot/queue';
import { uniqueQueuePrefix } from '@prodshot/testing';
import { HISTORY_PURGE_BATCHES, scheduleRepeatableJobs } from './schedules.js';

const stack = inject('stack');
const prefix = uniqueQueuePrefix();
const connections: ReturnType<typeof createRedisConnection>[] = [];
const producers: JobProducer[] = [];

/** A worker replica's producer: its own connections, the fleet's queue prefix. */
function replica(): JobProducer {
  const connection = createRedisConnection(stack.redisUrl, 'producer', 'schedules-test');
  connections.push(connection);
  const producer = new JobProducer(connection, prefix, () => {
    const events = createRedisConnection(stack.redisUrl, 'consumer', 'schedules-test-events');
    connections.push(events);
    return events;
  });
  producers.push(producer);
  return producer;
}

afterAll(async () => {
  for (const producer of producers) await producer.close();
  for (const connection of connections) connection.disconnect();
});

describe('the repeatable jobs', () => {
  it('are scheduled once for the fleet however many workers start, the purge at HISTORY_PURGE_INTERVAL_MS', async () => {
    const config = loadConfig({
      REDIS_URL: stack.redisUrl,
      QUEUE_PREFIX: prefix,
      HISTORY_PURGE_INTERVAL_MS: '1800000',
    });
    const [first, second] = [replica(), replica()];
    await Promise.all([scheduleRepeatableJobs(first, config), scheduleRepeatableJobs(second, config)]);
    // A replica restarting upserts again.
    await scheduleRepeatableJobs(first, config);

    const queue = first.queue('interactive');
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((scheduler) => scheduler.key).sort()).toEqual([
      'purge-expired-history',
      'sweep-stale-generations',
    ]);
    const purge = await queue.getJobScheduler('purge-expired-history');
    expect(purge).toMatchObject({ every: 1_800_000, template: { data: HISTORY_PURGE_BATCHES } });
    const pending = await queue.getJobs(['delayed', 'waiting', 'prioritized']);
    expect(pending.filter((job) => job.name === 'purge-expired-history')).toHaveLength(1);
  });
});
