import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isAlive, waitUntil } from '@prodshot/embedded';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(repoRoot, 'scripts', 'dist', 'start.js');
let dataDir: string;
/** The stack a test started, until it has exited. */
let started: ChildProcess | undefined;

beforeAll(async () => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does)`);
  dataDir = await mkdtemp(path.join(tmpdir(), 'prodshot-start-'));
  await chmod(dataDir, 0o755);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));
// A test that fails before its Ctrl-C must not leave the stack running: its services sit in
// process groups of their own, so each is ended by its PID.
afterEach(() => {
  if (!started || started.exitCode !== null || started.signalCode !== null) return;
  for (const pid of [...descendantPids(started.pid!), started.pid!]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  started = undefined;
});

function childPids(pid: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
}

function descendantPids(pid: number): number[] {
  return childPids(pid).flatMap((child) => [child, ...descendantPids(child)]);
}

/** A process's command line, or '' when it ended since it was listed (a helper such as chrt runs for milliseconds). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** When each process is last seen alive, polled every 5 ms until all are gone. */
async function exitTimes(pids: number[], timeoutMs: number): Promise<Map<number, number>> {
  const seen = new Map(pids.map((pid) => [pid, performance.now()]));
  const until = performance.now() + timeoutMs;
  while (performance.now() < until && pids.some(isAlive)) {
    for (const pid of pids) if (isAlive(pid)) seen.set(pid, performance.now());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (pids.some(isAlive)) throw new Error('some services did not exit');
  return seen;
}

describe('the built stack (what npm start runs after building)', () => {
  it("serves health on embedded services, and a terminal's Ctrl-C stops every service cleanly", async () => {
    const [port, opsPort, postgresPort, redisPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      OPS_PORT: String(opsPort),
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(postgresPort),
      EMBEDDED_REDIS_PORT: String(redisPort),
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    // Its own process group, as a terminal's foreground job, so that Ctrl-C can be sent to the group.
    const stack = spawn(process.execPath, [entry], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    started = stack;
    let output = '';
    stack.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    stack.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => stack.once('exit', resolve));

    await waitUntil(
      () => output.includes('Prodshot is running') || stack.exitCode !== null,
      90_000,
      'the stack to start',
    );
    expect(output).toContain('Prodshot is running');
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // The details are on the ops listener, on loopback only; the public port has no such path.
    const ready = await fetch(`http://127.0.0.1:${opsPort}/health`);
    expect(await ready.json()).toMatchObject({
      dependencies: { postgres: { status: 'ok' }, redis: { status: 'ok' }, storage: { status: 'ok' } },
    });
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${opsPort}/metrics`)).status).toBe(200);
    const spa = await fetch(`http://127.0.0.1:${port}/dashboard`);
    expect(spa.headers.get('content-type')).toContain('text/html');

    const services = descendantPids(stack.pid!);
    const named = (pattern: RegExp) => services.filter((pid) => pattern.test(commandOf(pid)));
    const [apps, stores] = [named(/apps\/(api|worker)\//), named(/redis-server|postgres -D /)];
    expect(apps).toHaveLength(2);
    expect(stores.length).toBeGreaterThanOrEqual(2);
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group at once.
    process.kill(-stack.pid!, 'SIGINT');
    const lastSeen = await exitTimes(services, 40_000);
    const code = await exited;
    expect(output).not.toMatch(/did not stop cleanly|exited unexpectedly|Error/);
    expect(code).toBe(0);
    // Redis and Postgres outlive the API and the worker, which finish their work against them.
    const lastApp = Math.max(...apps.map((pid) => lastSeen.get(pid)!));
    for (const pid of stores) expect(lastSeen.get(pid)!).toBeGreaterThan(lastApp);
  }, 150_000);

  it('stops boot with one line naming a bad variable', () => {
    const result = spawnSync(process.execPath, [entry], {
      cwd: repoRoot,
      env: { ...process.env, REDIS_URL: 'not-a-url', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('REDIS_URL');
  });
});
