import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { createDatabase, migrateToLatest, type Db } from '@prodshot/db';
import { freePort, startEmbeddedStack, waitUntil, type EmbeddedStack } from '@prodshot/embedded';
import { apiProcessEnv, serviceProcessEnv } from '../service-process-env.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServiceProcess {
  child: ChildProcess;
  /** Peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** Starts the peak over from the current resident memory (Linux's clear_refs), so a phase can measure its own. */
  resetPeakRss(): void;
  stop(): Promise<void>;
}

export interface BenchStack {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  db: Db;
  api: ServiceProcess;
  /**
   * Replaces the running workers. With `cpusEach`, each worker is held to that many cores, as a
   * pod's CPU limit holds it: WORKER_CPUS tells it so, and a CPU affinity enforces it.
   */
  startWorkers(count: number, concurrency: number, cpusEach?: number): Promise<ServiceProcess[]>;
  /** Starts one more worker beside those running, as an orchestrator replacing a crashed replica does. */
  addWorker(concurrency: number): ServiceProcess;
  stop(): Promise<void>;
}

/** Cores for the n-th worker of `cpusEach` cores, taken round the machine's cores in turn. */
export function coresFor(n: number, cpusEach: number, machineCores: number): number[] {
  return Array.from({ length: Math.min(cpusEach, machineCores) }, (_, k) => (n * cpusEach + k) % machineCores);
}

function spawnService(entry: string, env: NodeJS.ProcessEnv, cores?: number[]): ServiceProcess {
  const node = [process.execPath, path.join(repoRoot, entry)];
  // taskset (util-linux) execs node in place, so the child's pid is node's.
  const [command, ...args] = cores ? ['taskset', '--cpu-list', cores.join(','), ...node] : node;
  const child = spawn(command!, args, { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    peakRssMb: () => {
      try {
        const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
        return line ? Number(line.replace(/\D+/g, '')) / 1024 : Number.NaN;
      } catch {
        return Number.NaN;
      }
    },
    resetPeakRss: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The built product on embedded services, all on loopback, in a throwaway data folder. */
export async function startBenchStack(extraEnv: NodeJS.ProcessEnv = {}): Promise<BenchStack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'prodshot-bench-'));
  await chmod(dataDir, 0o755);
  const [port, opsPort, postgresPort, redisPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const embedded: EmbeddedStack = await startEmbeddedStack({ dataDir, postgresPort, redisPort, database: 'prodshot' });
  const db = createDatabase({ connectionString: embedded.databaseUrl, max: 4 });
  await migrateToLatest(db);
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    OPS_PORT: String(opsPort),
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    DATABASE_URL: embedded.databaseUrl,
    REDIS_URL: embedded.redisUrl,
    // A bench drives one user per simulated seller far harder than the per-user limits allow.
    RATE_LIMIT_GENERATIONS_PER_MINUTE: '100000',
    RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: '100000',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
    ...extraEnv,
  };
  const api = spawnService('apps/api/dist/server.js', apiProcessEnv(env));
  await waitUntil(async () => (await fetch(`${baseUrl}/api/health`).catch(() => null))?.ok === true, 60_000, 'the API to answer');
  let workers: ServiceProcess[] = [];
  return {
    baseUrl,
    env,
    db,
    api,
    async startWorkers(count, concurrency, cpusEach) {
      await Promise.all(workers.map((w) => w.stop()));
      const workerEnv = serviceProcessEnv({ ...env, WORKER_CONCURRENCY: String(concurrency), ...(cpusEach ? { WORKER_CPUS: String(cpusEach) } : {}) });
      workers = Array.from({ length: count }, (_, n) =>
        spawnService('apps/worker/dist/main.js', workerEnv, cpusEach ? coresFor(n, cpusEach, availableParallelism()) : undefined),
      );
      return workers;
    },
    addWorker(concurrency) {
      const worker = spawnService('apps/worker/dist/main.js', serviceProcessEnv({ ...env, WORKER_CONCURRENCY: String(concurrency) }));
      workers.push(worker);
      return worker;
    },
    async stop() {
      await Promise.all([...workers.map((w) => w.stop()), api.stop()]);
      await db.destroy();
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a bench entry to its end: exit 0, or the failure's stack and exit 1 (open sockets and pools would keep the process alive). */
export function runMain(main: () => Promise<void>): void {
  main()
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}`);
      process.exit(1);
    });
}

/**
 * Starts workers and waits until each takes jobs: a worker joins its queues only once its model and
 * engine threads are loaded, and traffic sent before that measures a boot, not a running product
 * (the soak's first slow enhancements were the ones sent in those seconds).
 */
export async function startWorkersAndWait(stack: BenchStack, count: number, concurrency: number): Promise<{ workers: ServiceProcess[]; bootMs: number }> {
  const startedAt = Date.now();
  const workers = [...(await stack.startWorkers(count, concurrency))];
  const queue = new Queue('interactive', { connection: { url: stack.env.REDIS_URL }, prefix: 'prodshot' });
  try {
    while ((await queue.getWorkersCount()) < workers.length) {
      if (Date.now() - startedAt > 180_000) throw new Error('the workers did not join their queues within 3 min');
      await sleep(250);
    }
  } finally {
    await queue.close();
  }
  return { workers, bootMs: Date.now() - startedAt };
}
