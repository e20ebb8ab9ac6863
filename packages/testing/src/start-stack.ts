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
  /** Which services to run; by default TEST_STACK from the environment (testStackChoice). */
  mode?: StackInfo['mode'];
}

/** The images the containers stack runs: the official ones, or local stand-ins of the same name. */
export const CONTAINER_IMAGES = {
  postgres: 'postgres:17-alpine',
  redis: 'redis:7-alpine',
  minio: 'minio/minio:latest',
} as const;

/** The label `npm run containers:standins` puts on the images it builds, saying what they really are. */
const STANDIN_LABEL = 'org.prodshot.standin';
/** Testcontainers' resource reaper (testcontainers 11.14); where it cannot be had, teardown removes the containers itself. */
const RYUK_IMAGE = process.env.RYUK_CONTAINER_IMAGE ?? 'testcontainers/ryuk:0.14.0';

/**
 * TEST_STACK=embedded (the default): the embedded Postgres and Redis `npm start` uses plus s3rver as
 * the S3 endpoint. TEST_STACK=containers: Postgres, Redis and MinIO in Docker via testcontainers.
 * An explicit choice, so a run never changes what it tests because a daemon happened to answer.
 */
export function testStackChoice(env: NodeJS.ProcessEnv = process.env): StackInfo['mode'] {
  const value = env.TEST_STACK?.trim() || 'embedded';
  if (value !== 'containers' && value !== 'embedded') {
    throw new Error(`TEST_STACK must be "containers" or "embedded" (the default), not "${value}"`);
  }
  return value;
}

/**
 * Real Postgres, Redis and S3 for integration tests, as TEST_STACK chooses (testStackChoice).
 * Logs one line naming the stack, and for containers each image and whether it is a stand-in.
 */
export async function startStack(options: StartStackOptions = {}): Promise<RunningTestStack> {
  const log = options.log ?? ((line: string) => console.log(line));
  const mode = options.mode ?? testStackChoice();
  let stack: RunningTestStack;
  if (mode === 'containers') {
    const images = await checkContainerImages();
    stack = await startContainers(
      images.some(({ image, standin }) => image === CONTAINER_IMAGES.minio && standin !== undefined),
    );
    const described = images.map(({ image, standin }) => `${image} (${standin ?? 'official image'})`).join('; ');
    log(`[test stack] TEST_STACK=containers: Postgres, Redis and S3 via testcontainers on ${described}`);
  } else {
    stack = await startEmbedded();
    log(
      '[test stack] TEST_STACK=embedded: embedded Postgres, redis-server, and s3rver as the S3 endpoint ' +
        '(s3rver does not verify SigV4 signatures, so S3 tests prove request flow, not auth)',
    );
  }
  await migrateTemplate(stack.postgresAdminUrl);
  return stack;
}

const STANDINS_HINT =
  'Build local stand-ins with `npm run containers:standins` (it starts dockerd when it can), or run with TEST_STACK=embedded.';

/**
 * Before any container starts: a runtime must answer and every image must be here already (this
 * machine may reach no registry, and a pull that cannot succeed would only time out). Returns each
 * image with its stand-in label, undefined for an official image.
 */
async function checkContainerImages(): Promise<{ image: string; standin: string | undefined }[]> {
  const { getContainerRuntimeClient, ImageName } = await import('testcontainers');
  let client: Awaited<ReturnType<typeof getContainerRuntimeClient>>;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    throw new Error(
      `TEST_STACK=containers, but no container runtime answers (${(error as Error).message}). ${STANDINS_HINT}`,
      { cause: error },
    );
  }
  const images = Object.values(CONTAINER_IMAGES);
  const missing: string[] = [];
  const found: { image: string; standin: string | undefined }[] = [];
  for (const image of images) {
    if (!(await client.image.exists(ImageName.fromString(image)))) {
      missing.push(image);
      continue;
    }
    const info = await client.image.inspect(ImageName.fromString(image));
    found.push({ image, standin: info.Config?.Labels?.[STANDIN_LABEL] });
  }
  if (missing.length > 0) {
    throw new Error(
      `TEST_STACK=containers, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not on this machine. Pull ${missing.length === 1 ? 'it' : 'them'}, or: ${STANDINS_HINT}`,
    );
  }
  if (!process.env.TESTCONTAINERS_RYUK_DISABLED && !(await client.image.exists(ImageName.fromString(RYUK_IMAGE)))) {
    // Without its image testcontainers would try to pull the reaper and fail; stop() removes the containers instead.
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  }
  return found;
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

async function startEmbedded(): Promise<RunningTestStack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'prodshot-test-stack-'));
  // As root, Postgres runs as the postgres user, which must be able to enter this folder.
  await chmod(dataDir, 0o755);
  const [postgresPort, redisPort, s3Port] = await Promise.all([freePort(), freePort(), freePort()]);
  const embedded = await startEmbeddedStack({ dataDir, postgresPort, redisPort, database: 'postgres' });
  const s3 = await startLocalS3({ dataDir, port: s3Port });
  return {
    mode: 'embedded',
    postgresAdminUrl: embedded.databaseUrl,
    templateDatabase: TEMPLATE_DATABASE,
    redisUrl: embedded.redisUrl,
    s3: {
      kind: 's3rver',
      endPoint: s3.endPoint,
      port: s3.port,
      useSSL: s3.useSSL,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      region: s3.region,
    },
    stop: async () => {
      await Promise.allSettled([s3.stop(), embedded.stop()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function startContainers(minioIsStandin: boolean): Promise<RunningTestStack> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const { RedisContainer } = await import('@testcontainers/redis');
  const minioUser = 'prodshot';
  const minioPassword = 'prodshot-test-secret';
  const starting = [
    new PostgreSqlContainer(CONTAINER_IMAGES.postgres)
      .withUsername('postgres')
      .withPassword('postgres')
      .withDatabase('postgres')
      .start(),
    new RedisContainer(CONTAINER_IMAGES.redis)
      .withCommand(['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'])
      .start(),
    new GenericContainer(CONTAINER_IMAGES.minio)
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: minioUser, MINIO_ROOT_PASSWORD: minioPassword })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
      .start(),
  ] as const;
  const started = await Promise.allSettled(starting);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    // Ryuk may be off (no image for it here): stop what did start rather than leave it running.
    await Promise.allSettled(
      started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)),
    );
    throw failed.reason;
  }
  const [postgres, redis, minio] = await Promise.all(starting);
  return {
    mode: 'containers',
    postgresAdminUrl: postgres.getConnectionUri(),
    templateDatabase: TEMPLATE_DATABASE,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    s3: {
      kind: minioIsStandin ? 'minio-standin' : 'minio',
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
