import { Gauge, type Registry } from 'prom-client';
import { QUEUE_NAMES } from './queues.js';
import type { JobProducer } from './producer.js';

const STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

/** `prodshot_queue_jobs{queue,state}`, read from Redis at scrape time: what KEDA and dashboards watch. */
export function registerQueueDepthGauge(registry: Registry, producer: JobProducer): void {
  new Gauge({
    name: 'prodshot_queue_jobs',
    help: 'Jobs per queue and state, read from Redis at scrape time',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const name of QUEUE_NAMES) {
        const counts = await producer.queue(name).getJobCounts(...STATES);
        for (const [state, value] of Object.entries(counts)) this.set({ queue: name, state }, value);
      }
    },
  });
}
