import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, migrateToLatest } from '@prodshot/db';
import { ensureDatabase, freePort, startEmbeddedStack, startLocalS3 } from '@prodshot/embedded';
import type { StackInfo } from './stack-info.js';

export const TEMPLATE_DATABASE = 'prodshot_template';

export interface RunningTestStack extends StackInfo {
  stop(): Promise<void>;
}

export interface StartStackOptions {
  log?: (line: string) => void;
  /** Force a mode; by default containers when a runtime answers, local processes otherwise. */
  mode?: StackInfo['mode'];
}

/**
 * Real Postgres, Redis and S3 for integration tests: testcontainers when a container runtime
 * answers, otherwise the same embedded processes `npm start` uses plus a local S3 server.
 */
export async function startStack(options: StartStackOptions = {}): Promise<RunningTestStack> {
  const log = options.log ?? ((line: string) => console.log(line));
  const mode = options.mode ?? ((await containerRuntimeAvailable()) ? 'containers' : 'local');
  const stack = mode === 'containers' ? await startContainers() : await startLocalProcesses();
  log(
    mode === 'containers'
      ? '[test stack] containers: Postgres, Redis and MinIO via testcontainers'
      : '[test stack] local processes: embedded Postgres, redis-server, and s3rver as the S3 endpoint ' +
          '(s3rver does not verify SigV4 signatures, so S3 tests prove request flow, not auth)',
  );
  await migrateTemplate(stack.postgresAdminUrl);
  return stack;
}

/** Asks testcontainers whether Docker/Podman answers; it rejects within milliseconds when none runs. */
export async function containerRuntimeAvailable(): Promise<boolean> {
  if (process.env.PRODSHOT_TEST_STACK === 'local') return false;
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function migrateTemplate(adminUrl: string): Promise<void> {
  await ensureDatabase(adminUrl, TEMPLATE_DATABASE);
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE_DATABASE}`;
  const db = createDatabase({ connectionString: url.toString(), max: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    // CREATE DATABASE … TEMPLATE needs the template to have no open connections.
    await db.destroy();
  }
}

async function startLocalProcesses(): Promise<RunningTestStack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'prodshot-test-stack-'));
  // As root, Postgres runs as the postgres user, which must be able to enter this folder.
  await chmod(dataDir, 0o755);
  const [postgresPort, redisPort, s3Port] = await Promise.all([freePort(), freePort(), freePort()]);
  const embedded = await startEmbeddedStack({ dataDir, postgresPort, redisPort, database: 'postgres' });
  const s3 = await startLocalS3({ dataDir, port: s3Port });
  return {
    mode: 'local',
    postgresAdminUrl: embedded.databaseUrl,
    templateDatabase: TEMPLATE_DATABASE,
    redisUrl: embedded.redisUrl,
    s3: { kind: 's3rver', endPoint: s3.endPoint, port: s3.port, useSSL: s3.useSSL, accessKey: s3.accessKey, secretKey: s3.secretKey, region: s3.region },
    stop: async () => {
      await Promise.allSettled([s3.stop(), embedded.stop()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function startContainers(): Promise<RunningTestStack> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const { RedisContainer } = await import('@testcontainers/redis');
  const minioUser = 'prodshot';
  const minioPassword = 'prodshot-test-secret';
  const [postgres, redis, minio] = await Promise.all([
    new PostgreSqlContainer('postgres:17-alpine').withUsername('postgres').withPassword('postgres').withDatabase('postgres').start(),
    new RedisContainer('redis:7-alpine')
      .withCommand(['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'])
      .start(),
    new GenericContainer('minio/minio:latest')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: minioUser, MINIO_ROOT_PASSWORD: minioPassword })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
      .start(),
  ]);
  return {
    mode: 'containers',
    postgresAdminUrl: postgres.getConnectionUri(),
    templateDatabase: TEMPLATE_DATABASE,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    s3: {
      kind: 'minio',
      endPoint: minio.getHost(),
      port: minio.getMappedPort(9000),
      useSSL: false,
      accessKey: minioUser,
      secretKey: minioPassword,
      region: 'us-east-1',
    },
    stop: async () => {
      await Promise.allSettled([postgres.stop(), redis.stop(), minio.stop()]);
    },
  };
}
