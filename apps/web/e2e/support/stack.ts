import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import './shared-stack-info.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const entry = path.join(repoRoot, 'scripts', 'dist', 'start.js');

export interface RunningStack {
  baseUrl: string;
  stop: () => Promise<void>;
}

/** A stack this process started, with the operator listener its queue depths are read from. */
export interface OwnStack extends RunningStack {
  opsUrl: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A file's stack. Without `env` it is the run's shared one (support/shared-stack.ts), started once
 * for every file on the default settings: its `stop` only waits for the jobs the file left to
 * finish, so the next file starts on a quiet stack. A file that needs other settings (short link
 * lifetimes, a stand-in hosted model) gets one of its own. PRODSHOT_E2E_BASE_URL points every file
 * at a stack already running.
 */
export async function startStack(options: { env?: NodeJS.ProcessEnv } = {}): Promise<RunningStack> {
  const existing = process.env.PRODSHOT_E2E_BASE_URL;
  if (existing) return { baseUrl: existing.replace(/\/$/, ''), stop: async () => {} };
  if (options.env) return startOwnStack(options.env);
  const shared = inject('e2eSharedStack');
  return { baseUrl: shared.baseUrl, stop: () => waitForIdleQueues(shared.opsUrl) };
}

/** The stack exactly as `npm start` runs it after building (scripts/dist/start.js), on free ports and a throwaway data folder, with `env` on top. */
export async function startOwnStack(extraEnv: NodeJS.ProcessEnv = {}): Promise<OwnStack> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does)`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'prodshot-e2e-'));
  await chmod(dataDir, 0o755);
  const [port, opsPort, postgresPort, redisPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    OPS_PORT: String(opsPort),
    DATA_DIR: dataDir,
    EMBEDDED_POSTGRES_PORT: String(postgresPort),
    EMBEDDED_REDIS_PORT: String(redisPort),
    LOG_LEVEL: 'warn',
    // Signed file URLs are absolute on PUBLIC_URL: it must be the origin the browser uses.
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...extraEnv,
  };
  // The e2e stack is always the embedded one, whatever the developer's shell points at.
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'CLERK_SECRET_KEY', 'CLERK_PUBLISHABLE_KEY', 'STRIPE_SECRET_KEY'])
    delete env[key];
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 120_000;
  while (!output.includes('Prodshot is running')) {
    if (child.exitCode !== null) throw new Error(`the stack exited during start:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGINT');
      throw new Error(`the stack did not start within 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    opsUrl: `http://127.0.0.1:${opsPort}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const BUSY_STATES = new Set(['waiting', 'prioritized', 'active']);
// Inside the 60 s every file gives its afterAll, so a stuck job fails with this message, not a hook timeout.
const IDLE_WAIT_SECONDS = 45;

/** Jobs waiting or running on every queue, from the API's `prodshot_queue_jobs` gauge. */
async function busyJobs(opsUrl: string): Promise<number> {
  const metrics = await (await fetch(`${opsUrl}/metrics`)).text();
  let busy = 0;
  for (const match of metrics.matchAll(/^prodshot_queue_jobs\{([^}]*)\} (\d+)$/gm)) {
    const state = /state="([^"]+)"/.exec(match[1] ?? '')?.[1];
    if (state && BUSY_STATES.has(state)) busy += Number(match[2]);
  }
  return busy;
}

/**
 * Waits until no job waits or runs on the shared stack: what one file leaves running (a batch, a
 * generation started as its last test ended) would otherwise share the two cores with the next
 * file's first steps. Delayed jobs (retries, the sweeper's schedule) do not count.
 */
async function waitForIdleQueues(opsUrl: string): Promise<void> {
  const deadline = Date.now() + IDLE_WAIT_SECONDS * 1000;
  let busy = await busyJobs(opsUrl);
  while (busy > 0) {
    if (Date.now() > deadline)
      throw new Error(`the shared e2e stack still has ${busy} jobs waiting or running after ${IDLE_WAIT_SECONDS} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    busy = await busyJobs(opsUrl);
  }
}
