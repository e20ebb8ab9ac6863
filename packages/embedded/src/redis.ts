import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isAlive, isPortOpen, stopLeftover, waitUntil } from './processes.js';

export interface EmbeddedRedisOptions {
  dataDir: string;
  port: number;
  /** AOF on by default, as production runs it, so a restart keeps queued jobs. */
  appendOnly?: boolean;
  log?: (line: string) => void;
}

export interface RunningRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export class MissingRedisError extends Error {
  override readonly name = 'MissingRedisError';
  constructor() {
    super(
      'redis-server was not found on PATH. Install it with `sudo apt-get install -y redis-server` ' +
        '(Debian/Ubuntu) or `brew install redis` (macOS), or set REDIS_URL to a running Redis ≥ 7.',
    );
  }
}

export function redisServerBinary(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const binary = found.stdout.trim();
  return found.status === 0 && binary ? binary : null;
}

/** A real redis-server on loopback, with the settings BullMQ needs (noeviction). */
export async function startEmbeddedRedis(options: EmbeddedRedisOptions): Promise<RunningRedis> {
  const binary = redisServerBinary();
  if (!binary) throw new MissingRedisError();
  const log = options.log ?? (() => {});
  await mkdir(options.dataDir, { recursive: true });
  const pidFile = path.join(options.dataDir, 'redis.pid');
  await stopLeftover(pidFile, 'SIGTERM');

  const child = spawn(
    binary,
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(options.port),
      '--dir',
      options.dataDir,
      '--pidfile',
      pidFile,
      '--appendonly',
      options.appendOnly === false ? 'no' : 'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--protected-mode',
      'yes',
      '--daemonize',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (chunk: Buffer) => log(chunk.toString().trim()));
  child.stderr.on('data', (chunk: Buffer) => log(chunk.toString().trim()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`redis-server exited with code ${child.exitCode} (port ${options.port} busy?)`);
        return isPortOpen(options.port);
      },
      15_000,
      `redis-server on port ${options.port}`,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  const pid = child.pid!;
  // If the owner dies of an uncaught error, Redis must not outlive it.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  return {
    url: `redis://127.0.0.1:${options.port}`,
    pid,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (!isAlive(pid) || child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
