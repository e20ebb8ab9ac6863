import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from '@prodshot/config';
import { createDatabase, migrateToLatest } from '@prodshot/db';
import { startEmbeddedStack, waitUntil, type EmbeddedStack } from '@prodshot/embedded';
import { apiProcessEnv, serviceProcessEnv } from './service-process-env.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD_STOP_DEADLINE_MS = 30_000;

interface Service {
  name: 'api' | 'worker';
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `npm start` after the build: embedded Postgres and Redis unless URLs are given, migrations,
 * then the API (which also serves the built web app) and one worker. Ctrl-C stops the API and
 * worker first, then Redis and Postgres, and leaves nothing running.
 */
export async function runStack(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env, { cwd: repoRoot });
  const stack = await startEmbeddedStack({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redis.url,
    postgresPort: config.embedded.postgresPort,
    redisPort: config.embedded.redisPort,
    database: 'prodshot',
  });
  let services: Service[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const unclean = (await Promise.all(services.map(stopService))).filter((stopped) => stopped.code !== 0);
    for (const { name, code: exitCode } of unclean)
      console.error(`[prodshot] ${name} did not stop cleanly (exit code ${exitCode})`);
    await stack.stop();
    process.exit(unclean.length > 0 ? 1 : code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    await migrate(stack.databaseUrl);
    const childEnv = { ...env, DATABASE_URL: stack.databaseUrl, REDIS_URL: stack.redisUrl, DATA_DIR: config.dataDir };
    services = [
      startService('api', 'apps/api/dist/server.js', apiProcessEnv(childEnv)),
      startService('worker', 'apps/worker/dist/main.js', serviceProcessEnv(childEnv)),
    ];
    for (const service of services) {
      void service.exited.then(({ code }) => {
        if (stopping) return;
        console.error(`[prodshot] ${service.name} exited unexpectedly (code ${code}); stopping everything`);
        void stopAll(1);
      });
    }
    await waitForHealth(config);
    printBanner(config, stack);
  } catch (error) {
    console.error(`[prodshot] start failed: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll(1);
  }
}

async function migrate(databaseUrl: string): Promise<void> {
  const db = createDatabase({ connectionString: databaseUrl, max: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

function startService(name: Service['name'], entry: string, env: NodeJS.ProcessEnv): Service {
  // Its own process group: a terminal's Ctrl-C reaches only us, and we stop services in order.
  const child = spawn(process.execPath, [path.join(repoRoot, entry)], {
    cwd: repoRoot,
    env,
    stdio: 'inherit',
    detached: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { name, child, exited };
}

/**
 * Stops a service that is still running; one that had already exited was reported then. Ending by
 * our SIGTERM itself is clean too: services handle it once they can take work, so a service it
 * ends was still loading.
 */
async function stopService(service: Service): Promise<{ name: Service['name']; code: number | null }> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return { name: service.name, code: 0 };
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), CHILD_STOP_DEADLINE_MS);
  const { code, signal } = await service.exited;
  clearTimeout(timer);
  return { name: service.name, code: signal === 'SIGTERM' ? 0 : code };
}

async function waitForHealth(config: Config): Promise<void> {
  const url = `http://127.0.0.1:${config.http.port}/api/health`;
  await waitUntil(
    async () => {
      try {
        return (await fetch(url)).ok;
      } catch {
        return false;
      }
    },
    60_000,
    `${url} to answer 200`,
  );
}

function printBanner(config: Config, stack: EmbeddedStack): void {
  const lines = [
    `Prodshot is running at ${config.http.publicUrl}  (health: ${config.http.publicUrl}/api/health)`,
    `  postgres: ${stack.postgres ? `embedded on 127.0.0.1:${config.embedded.postgresPort}` : 'DATABASE_URL'}`,
    `  redis:    ${stack.redis ? `embedded on 127.0.0.1:${config.embedded.redisPort}` : 'REDIS_URL'}`,
    `  storage:  ${config.storage.driver === 'fs' ? `files under ${config.storage.dir}` : `MinIO/S3 bucket ${config.storage.bucket}`}`,
    `  auth: ${config.auth.mode} · payments: ${config.payments.mode} · image engine: ${config.imageModel.kind}`,
    'Press Ctrl-C to stop.',
  ];
  console.log(lines.join('\n'));
}

export function describeStartError(error: unknown): string {
  return error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
}
