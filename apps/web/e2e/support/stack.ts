import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const entry = path.join(repoRoot, 'scripts', 'dist', 'start.js');

export interface RunningStack {
  baseUrl: string;
  stop: () => Promise<void>;
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
 * The stack exactly as `npm start` runs it after building (scripts/dist/start.js), on free ports
 * and a throwaway data folder, with `env` on top (short link lifetimes, say). PRODSHOT_E2E_BASE_URL
 * points the tests at a stack already running.
 */
export async function startStack(options: { env?: NodeJS.ProcessEnv } = {}): Promise<RunningStack> {
  const existing = process.env.PRODSHOT_E2E_BASE_URL;
  if (existing) return { baseUrl: existing.replace(/\/$/, ''), stop: async () => {} };
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
    ...options.env,
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
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
