import type { Job } from 'bullmq';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { registerQueueDepthGauge, type JobProducer } from '@prodshot/queue';

export interface WorkerMetrics {
  registry: Registry;
  observeCompleted(job: Job): void;
  observeFailed(job: Job | undefined): void;
  creditsRefunded(amount: number): void;
}

/** Prometheus metrics of one worker process: job durations and failures by job name, queue depth at scrape time. */
export function createWorkerMetrics(producer: JobProducer): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'prodshot_job_duration_seconds',
    help: 'Time from a job starting on a worker to it finishing',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });
  const failures = new Counter({
    name: 'prodshot_job_failures_total',
    help: 'Failed job attempts by job name',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  registerQueueDepthGauge(registry, producer);
  const refunded = new Counter({
    name: 'prodshot_credits_refunded_total',
    help: 'Credits given back for styles that failed for good (reservations are counted by the API)',
    registers: [registry],
  });
  const seconds = (job: Job) =>
    job.processedOn && job.finishedOn ? (job.finishedOn - job.processedOn) / 1000 : undefined;
  return {
    registry,
    observeCompleted(job) {
      const value = seconds(job);
      if (value !== undefined) duration.observe({ job: job.name, outcome: 'completed' }, value);
    },
    creditsRefunded(amount) {
      refunded.inc(amount);
    },
    observeFailed(job) {
      if (!job) return;
      failures.inc({ job: job.name });
      const value = seconds(job);
      if (value !== undefined) duration.observe({ job: job.name, outcome: 'failed' }, value);
    },
  };
}
