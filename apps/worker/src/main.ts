import { Emitter } from '@socket.io/redis-emitter';
import { createPublisher } from '@prodshot/contracts';
import { Worker, type Job } from 'bullmq';
import pino from 'pino';
import type { Registry } from 'prom-client';
import type { Redis } from 'ioredis';
import { ConfigError, loadConfig, type Config } from '@prodshot/config';
import { createDatabase, createRepositories, pingDatabase, WebhookEvents, type Db } from '@prodshot/db';
import {
  createOpsServer,
  createRedisConnection,
  JobProducer,
  pingRedis,
  QUEUE_NAMES,
  WORKER_SETTINGS,
  type QueueName,
} from '@prodshot/queue';
import { ArchiveLinkSecret, createObjectStore, resolveSigningSecret, waitUntilReady } from '@prodshot/storage';
import { CutoutModelError, startModelHost, type ModelHost } from './cutout-model/model-host.js';
import { createDispatcher, settleFailedJob } from './dispatch.js';
import { createEnginePool, type EnginePool } from './engine-pool.js';
import { handlers } from './handlers/index.js';
import type { WorkerDeps } from './deps.js';
import { createWorkerMetrics } from './metrics.js';
import { withWebhookEvents } from './realtime/webhook-publisher.js';
import { applyCpuPriority } from './cpu-priority.js';
import { scheduleRepeatableJobs } from './schedules.js';

/** Longer than any single job step, shorter than an orchestrator's kill grace period. */
const SHUTDOWN_DEADLINE_MS = 60_000;
/**
 * Interactive jobs in flight per interactive engine thread. They wait on the object store and
 * Postgres longer than they compute: with one job per thread, an analysis stuck on a stalled store
 * held the lane and a prompt enhancement waited behind it (502 after 45 s). Renders stay one
 * job per thread: they compute.
 */
const INTERACTIVE_JOBS_PER_THREAD = 4;
/**
 * Webhook deliveries in flight at once. They wait on receivers (up to 10 s each) and compute
 * nothing, on a queue of their own: slow receivers fill these lanes and no other.
 */
const WEBHOOK_LANES = 16;

/** The queues with engine threads of their own. */
type EngineQueue = Exclude<QueueName, 'webhooks'>;

async function main(): Promise<void> {
  const config = loadConfig(process.env, { require: ['DATABASE_URL', 'REDIS_URL'] });
  const redisUrl = config.redis.url!;
  const log = pino({ level: config.logLevel, base: { service: 'worker', pid: process.pid } });
  // From the first job it may take on, a stop request must find its way to a graceful shutdown:
  // one that comes while the worker is still starting waits for the start to finish.
  const stop: { shutdown?: (signal: NodeJS.Signals) => Promise<void>; requested?: NodeJS.Signals } = {};
  const onStopSignal = (signal: NodeJS.Signals) =>
    stop.shutdown ? void stop.shutdown(signal) : (stop.requested ??= signal);
  process.on('SIGTERM', onStopSignal);
  process.on('SIGINT', onStopSignal);
  log.info('worker starting');
  const threads: Record<EngineQueue, number> = {
    render: config.worker.concurrency,
    interactive: config.worker.interactiveConcurrency,
  };
  const lanes: Record<QueueName, number> = {
    render: threads.render,
    interactive: threads.interactive * INTERACTIVE_JOBS_PER_THREAD,
    webhooks: WEBHOOK_LANES,
  };
  const db = createDatabase({
    connectionString: config.databaseUrl!,
    max: (lanes.render + lanes.interactive) * 2 + lanes.webhooks + 2,
  });
  const connection = createRedisConnection(redisUrl, 'consumer', 'worker');
  const producerConnection = createRedisConnection(redisUrl, 'consumer', 'worker-producer');
  const signingSecret = await resolveSigningSecret(config.storage, config.dataDir);
  const store = createObjectStore(config.storage, { signingSecret });
  await waitUntilReady(store, {
    onRetry: (err, attempt) => log.warn({ err, attempt }, 'object store not ready yet; trying again'),
  });

  const model = await loadCutoutModel(config, log, db, connection);
  // Each queue has engine threads of its own: a prompt enhancement never waits in the pool behind a
  // 4096 px render, and an operator sizes the two apart.
  const pools: Record<EngineQueue, EnginePool> = {
    render: engineLane(config, model, threads.render),
    interactive: engineLane(config, model, threads.interactive),
  };
  await Promise.all(Object.values(pools).map((pool) => pool.warm()));
  applyCpuPriority(config.worker.cpuPriority, log);
  const producer = new JobProducer(
    producerConnection,
    config.redis.queuePrefix,
    () => createRedisConnection(redisUrl, 'consumer', 'worker-events'),
    config.jobs,
  );
  const metrics = createWorkerMetrics(producer);
  const repos = createRepositories(db);
  const webhookEvents = new WebhookEvents(repos, store, new ArchiveLinkSecret(producerConnection), (ids) =>
    producer.enqueueWebhookDeliveries(ids),
  );
  const shared = {
    config,
    db,
    store,
    repos,
    publisher: withWebhookEvents(createPublisher(new Emitter(producerConnection)), webhookEvents, log),
    producer,
    metrics,
  };
  const workers = QUEUE_NAMES.map((queue) => {
    // Deliveries never call the engine; they hold the interactive pool's handle only because every handler's deps have one.
    const deps: WorkerDeps = { ...shared, engine: pools[queue === 'webhooks' ? 'interactive' : queue].engine };
    const worker = new Worker(queue, createDispatcher(handlers, deps, { deadlineMs: config.jobs.deadlineMs }), {
      connection,
      prefix: config.redis.queuePrefix,
      concurrency: lanes[queue],
      lockDuration: config.worker.lockDurationMs,
      stalledInterval: config.worker.lockDurationMs,
      // A job whose worker died is retried; one that keeps killing workers fails for good (and is refunded).
      maxStalledCount: 2,
      settings: WORKER_SETTINGS,
    });
    // With 'job completed', an operator (and the container test) sees which replica held a job.
    worker.on('active', (job) => log.info(jobLogFields(job), 'job started'));
    worker.on('completed', (job) => {
      metrics.observeCompleted(job);
      log.info(jobLogFields(job), 'job completed');
    });
    worker.on('failed', (job, error) => {
      metrics.observeFailed(job);
      log.warn({ ...(job ? jobLogFields(job) : {}), attempts: job?.attemptsMade, err: error }, 'job failed');
      if (job)
        settleFailedJob(handlers, deps, job, error).catch((e: unknown) =>
          log.error({ err: e, jobId: job.id }, 'settling a failed job failed'),
        );
    });
    worker.on('error', (error) => log.error({ err: error }, 'worker error'));
    return worker;
  });
  await scheduleRepeatableJobs(producer, config);
  const health = await startHealthServer(config, db, connection, { registry: metrics.registry });
  log.info(
    {
      queues: QUEUE_NAMES,
      concurrency: lanes,
      threads,
      cpus: config.worker.cpus,
      engine: config.imageModel.kind,
      cutoutModel: model.info.description,
    },
    'worker ready',
  );
  // Without its model the worker can only fail jobs: leave, so the orchestrator starts a fresh one.
  model.onExit(() => {
    log.error('the cutout model thread stopped; exiting');
    process.exit(1);
  });

  let stopping = false;
  stop.shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: taking no new jobs, finishing active ones');
    const deadline = setTimeout(() => {
      // Jobs still active stay locked until their lock expires, then another worker picks them up.
      log.error('shutdown deadline passed, exiting with jobs still active');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    await Promise.all(workers.map((worker) => worker.close()));
    await health?.close();
    await producer.close();
    await Promise.all(Object.values(pools).map((pool) => pool.close()));
    await model.close();
    await Promise.allSettled([db.destroy(), connection.quit(), producerConnection.quit()]);
    log.info('worker stopped');
    process.exit(0);
  };
  if (stop.requested) await stop.shutdown(stop.requested);
}

function engineLane(config: Config, model: ModelHost, threads: number): EnginePool {
  return createEnginePool(config.imageModel, model, {
    threads,
    cpus: config.worker.cpus,
    cpuPriority: config.worker.cpuPriority,
    timeoutMs: config.worker.engineTimeoutMs,
  });
}

/**
 * The cutout model, loaded once before any job is taken. A worker that cannot load it says why in
 * one line and takes no jobs: with a health port it stays up answering 503 with the reason (so an
 * orchestrator shows it), otherwise it exits.
 */
async function loadCutoutModel(config: Config, log: pino.Logger, db: Db, redis: Redis): Promise<ModelHost> {
  try {
    return await startModelHost(config.cutoutModel, config.worker.cpus);
  } catch (error) {
    if (!(error instanceof CutoutModelError)) throw error;
    log.error(error.message);
    if (!config.worker.healthPort) {
      console.error(error.message);
      process.exit(1);
    }
    await startHealthServer(config, db, redis, { unfit: error.message });
    return new Promise<never>(() => {});
  }
}

/** The worker's operator listener on WORKER_HEALTH_PORT (none without it), on OPS_HOST like the API's. */
async function startHealthServer(
  config: Config,
  db: Db,
  redis: Redis,
  options: { registry?: Registry; unfit?: string },
) {
  if (!config.worker.healthPort) return undefined;
  const server = createOpsServer({
    checks: { postgres: () => pingDatabase(db), redis: () => pingRedis(redis) },
    ...options,
  });
  await server.listen({ port: config.worker.healthPort, host: config.ops.host });
  return server;
}

/** The keys the API logs too, so one search for a generation id finds the request and the jobs that ran it. */
function jobLogFields(job: Job): { jobId: string | undefined; job: string; generationId?: string; userId?: string } {
  const data = job.data as { generationId?: unknown; userId?: unknown } | undefined;
  return {
    jobId: job.id,
    job: job.name,
    ...(typeof data?.generationId === 'string' ? { generationId: data.generationId } : {}),
    ...(typeof data?.userId === 'string' ? { userId: data.userId } : {}),
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
