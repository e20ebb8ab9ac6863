import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { envSchema, type Env, type WorkerCpuPriority } from './env-schema.js';

const S3_PRESIGN_MAX_SECONDS = 7 * 24 * 3600;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
  }
}

export type StorageConfig = (
  | {
      driver: 'fs';
      dir: string;
      signingSecret: string | undefined;
      ttlSeconds: number;
      /** Prefix of signed file links: PUBLIC_URL when set, else none, so links work on whatever origin serves the app. */
      linkBase: string;
    }
  | {
      driver: 'minio';
      endPoint: string;
      port: number | undefined;
      useSSL: boolean;
      accessKey: string;
      secretKey: string;
      bucket: string;
      region: string;
      ttlSeconds: number;
      /** Where browsers reach the bucket when the endpoint the servers use is internal. */
      publicUrl: string | undefined;
    }) & {
  /** Longest any one call may take (STORAGE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Signed URLs are cut once per window of this length, so a file keeps one URL through it (SIGNED_URL_WINDOW_SECONDS). */
  windowSeconds: number;
};

export type AuthConfig =
  | {
      mode: 'clerk';
      secretKey: string;
      publishableKey: string;
      jwtKey: string | undefined;
      authorizedParties: string[];
      /** The JWT template the web app asks Clerk for; undefined, the session token. */
      jwtTemplate: string | undefined;
    }
  | { mode: 'embedded'; keyDir: string };

export type PaymentsConfig =
  | { mode: 'stripe'; secretKey: string; webhookSecret: string; apiBase: string | undefined }
  | { mode: 'local' };

export type ImageModelConfig =
  | { kind: 'local' }
  | { kind: 'openai'; apiKey: string; baseUrl: string | undefined; imageModel: string | undefined; chatModel: string | undefined }
  | { kind: 'fal'; apiKey: string; baseUrl: string | undefined };

export interface CutoutModelConfig {
  /** Unset: the default ISNet weights shipped as an npm package. */
  path: string | undefined;
  family: Env['CUTOUT_MODEL_FAMILY'];
  /** Unset: the packaged ISNet's size (768), or a file's own. */
  inputSize: number | undefined;
  /** Where a rewritten graph (widened to float32, rescaled) is kept between boots. */
  cacheDir: string;
}

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  logLevel: Env['LOG_LEVEL'];
  http: { host: string; port: number; publicUrl: string; webDistDir: string | undefined };
  dataDir: string;
  embedded: { postgresPort: number; redisPort: number };
  databaseUrl: string | undefined;
  redis: { url: string | undefined; queuePrefix: string };
  jobs: { attempts: number; backoffMs: number; deadlineMs: number };
  storage: StorageConfig;
  worker: {
    concurrency: number;
    /** CPUs this worker may use: WORKER_CPUS, else the machine's cores. */
    cpus: number;
    /** How the worker's renders yield the CPU to requests sharing the machine (see apps/worker cpu-priority). */
    cpuPriority: WorkerCpuPriority;
    healthPort: number | undefined;
    lockDurationMs: number;
    engineTimeoutMs: number;
    sweeper: { intervalMs: number; staleAfterMs: number };
    historyPurgeIntervalMs: number;
  };
  auth: AuthConfig;
  payments: PaymentsConfig;
  imageModel: ImageModelConfig;
  /** The on-device cutout model every engine uses to find the product (workers load it once). */
  cutoutModel: CutoutModelConfig;
  /** bull-board's basic-auth pair; undefined means the board is off. */
  admin: { user: string; password: string } | undefined;
  rateLimits: { generationsPerMinute: number; uploadsPerMinute: number; freeEngineCallsPerMinute: number };
  shedding: { maxEventLoopDelayMs: number; maxHeapBytes: number; retryAfterSeconds: number };
  /** Where operator endpoints listen: the API's ops port, and the host the worker's health port binds too. */
  ops: { host: string; port: number };
  /** Fastify's trustProxy: whose X-Forwarded-For and -Proto to believe (TRUST_PROXY). */
  trustProxy: boolean | string[];
  /** Decodes of uploads at once, and how many may wait; the rest are refused with 503. */
  uploads: { decodeConcurrency: number; decodeQueue: number };
}

export type RequiredVariable = 'DATABASE_URL' | 'REDIS_URL';

export interface LoadConfigOptions {
  /** Variables this process cannot run without (the api and worker need both URLs). */
  require?: RequiredVariable[];
  /** Base for relative paths such as DATA_DIR; defaults to the working directory. */
  cwd?: string;
}

/** Validates the environment once and returns the typed configuration, or throws a ConfigError naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const env = parseEnv(source);
  refusePlaceholderSecrets(env);
  for (const variable of options.require ?? []) {
    if (!env[variable]) throw new ConfigError(variable, 'is required (npm start sets it for the embedded services)');
  }
  const dataDir = path.resolve(options.cwd ?? process.cwd(), env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    nodeEnv: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    http: {
      host: env.HOST,
      port: env.PORT,
      publicUrl,
      webDistDir: env.WEB_DIST_DIR,
    },
    dataDir,
    embedded: { postgresPort: env.EMBEDDED_POSTGRES_PORT, redisPort: env.EMBEDDED_REDIS_PORT },
    databaseUrl: env.DATABASE_URL,
    redis: { url: env.REDIS_URL, queuePrefix: env.QUEUE_PREFIX },
    jobs: { attempts: env.JOB_ATTEMPTS, backoffMs: env.JOB_BACKOFF_MS, deadlineMs: env.JOB_DEADLINE_MS },
    storage: storageConfig(env, dataDir),
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      cpus: env.WORKER_CPUS ?? availableParallelism(),
      cpuPriority: env.WORKER_CPU_PRIORITY,
      healthPort: env.WORKER_HEALTH_PORT,
      lockDurationMs: env.WORKER_LOCK_DURATION_MS,
      engineTimeoutMs: env.ENGINE_TIMEOUT_MS,
      sweeper: { intervalMs: env.SWEEPER_INTERVAL_MS, staleAfterMs: env.SWEEPER_STALE_AFTER_MS },
      historyPurgeIntervalMs: env.HISTORY_PURGE_INTERVAL_MS,
    },
    auth: authConfig(env, dataDir, publicUrl),
    payments: paymentsConfig(env, publicUrl),
    imageModel: imageModelConfig(env),
    cutoutModel: cutoutModelConfig(env, options.cwd ?? process.cwd()),
    admin: adminConfig(env),
    rateLimits: {
      generationsPerMinute: env.RATE_LIMIT_GENERATIONS_PER_MINUTE,
      uploadsPerMinute: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
      freeEngineCallsPerMinute: env.RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE,
    },
    shedding: { maxEventLoopDelayMs: env.SHED_MAX_EVENT_LOOP_DELAY_MS, maxHeapBytes: env.SHED_MAX_HEAP_BYTES, retryAfterSeconds: env.SHED_RETRY_AFTER_SECONDS },
    ops: { host: env.OPS_HOST, port: env.OPS_PORT },
    trustProxy: trustProxyConfig(env.TRUST_PROXY),
    uploads: { decodeConcurrency: env.UPLOAD_DECODE_CONCURRENCY, decodeQueue: env.UPLOAD_DECODE_QUEUE },
  };
}

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Checked here rather than left to proxy-addr, which would stop the boot with a stack trace. */
function trustProxyConfig(value: string): Config['trustProxy'] {
  if (value === 'true' || value === 'false') return value === 'true';
  const entries = splitList(value);
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!PROXY_RANGES.has(entry) && (family === 0 || !prefixOk || extra !== undefined)) {
      throw new ConfigError('TRUST_PROXY', `must be true, false, or a comma list of addresses, CIDRs, loopback, linklocal or uniquelocal (got "${entry}")`);
    }
  }
  return entries;
}

/** Values an operator must choose: one still holding a value from .env.example or infra/k8s/secret.example.yaml stops the boot. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'MINIO_ACCESS_KEY',
  'MINIO_SECRET_KEY',
  'SIGNED_URL_SECRET',
  'CLERK_SECRET_KEY',
  'CLERK_PUBLISHABLE_KEY',
  'CLERK_JWT_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'OPENAI_API_KEY',
  'FAL_KEY',
  'ADMIN_PASSWORD',
] as const satisfies (keyof Env)[];

/** `change-me…` as a word of its own in any spelling, the `sk_live_...` shapes of .env.example, and its `user:password@host` URL. */
const PLACEHOLDER = /(^|[^a-z])change[-_ ]?me([^a-z]|$)|\.\.\.$|\/\/user:password@host[:/]/i;

function refusePlaceholderSecrets(env: Env): void {
  for (const variable of SECRET_VARIABLES) {
    if (PLACEHOLDER.test(env[variable] ?? '')) throw new ConfigError(variable, 'still holds the example placeholder: set a real secret');
  }
}

function cutoutModelConfig(env: Env, cwd: string): CutoutModelConfig {
  const file = env.CUTOUT_MODEL_PATH ? path.resolve(cwd, env.CUTOUT_MODEL_PATH) : undefined;
  if (file && !statSync(file, { throwIfNoEntry: false })?.isFile()) throw new ConfigError('CUTOUT_MODEL_PATH', `names no file (${file})`);
  // Shared by every worker on the machine (and every test stack): the widened graph depends only on the weights.
  return { path: file, family: env.CUTOUT_MODEL_FAMILY, inputSize: env.CUTOUT_MODEL_INPUT_SIZE, cacheDir: path.join(tmpdir(), 'prodshot-models') };
}

function adminConfig(env: Env): Config['admin'] {
  if (!env.ADMIN_USER && !env.ADMIN_PASSWORD) return undefined;
  return { user: need(env, 'ADMIN_USER', 'when ADMIN_PASSWORD is set'), password: need(env, 'ADMIN_PASSWORD', 'when ADMIN_USER is set') };
}

function parseEnv(source: NodeJS.ProcessEnv): Env {
  const blanksRemoved = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(blanksRemoved);
  if (result.success) return result.data;
  throw toConfigError(result.error);
}

function toConfigError(error: z.ZodError): ConfigError {
  const issue = error.issues[0];
  const variable = String(issue?.path[0] ?? 'environment');
  const value = issue?.input;
  const shown = typeof value === 'string' ? ` (got "${value.length > 40 ? `${value.slice(0, 40)}…` : value}")` : '';
  return new ConfigError(variable, `${describeIssue(issue)}${shown}`);
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'is invalid';
  if (issue.code === 'invalid_format' && issue.format === 'url') return 'must be a URL';
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.join(', ')}`;
  return issue.message.startsWith('must') ? issue.message : `is invalid: ${issue.message}`;
}

function storageConfig(env: Env, dataDir: string): StorageConfig {
  if (!env.MINIO_ENDPOINT) {
    return {
      driver: 'fs',
      dir: env.STORAGE_DIR ? path.resolve(env.STORAGE_DIR) : path.join(dataDir, 'storage'),
      signingSecret: env.SIGNED_URL_SECRET,
      ttlSeconds: env.SIGNED_URL_TTL_SECONDS,
      linkBase: env.PUBLIC_URL?.replace(/\/$/, '') ?? '',
      timeoutMs: env.STORAGE_TIMEOUT_MS,
      windowSeconds: env.SIGNED_URL_WINDOW_SECONDS,
    };
  }
  return {
    driver: 'minio',
    endPoint: env.MINIO_ENDPOINT,
    port: env.MINIO_PORT,
    useSSL: env.MINIO_USE_SSL,
    accessKey: need(env, 'MINIO_ACCESS_KEY', 'when MINIO_ENDPOINT is set'),
    secretKey: need(env, 'MINIO_SECRET_KEY', 'when MINIO_ENDPOINT is set'),
    bucket: env.MINIO_BUCKET,
    region: env.MINIO_REGION,
    ttlSeconds: env.SIGNED_URL_TTL_SECONDS,
    publicUrl: env.MINIO_PUBLIC_URL,
    timeoutMs: env.STORAGE_TIMEOUT_MS,
    windowSeconds: presignableWindow(env),
  };
}

/** S3 refuses a presigned URL valid for more than 7 days; one signed at a window's start lives up to a window longer than the TTL. */
function presignableWindow(env: Env): number {
  const window = env.SIGNED_URL_WINDOW_SECONDS;
  const longest = window + Math.ceil(env.SIGNED_URL_TTL_SECONDS / window) * window;
  if (longest > S3_PRESIGN_MAX_SECONDS) {
    throw new ConfigError('SIGNED_URL_WINDOW_SECONDS', `plus SIGNED_URL_TTL_SECONDS (rounded up to whole windows) must not exceed 7 days with MinIO: URLs would live ${longest} s`);
  }
  return window;
}

function authConfig(env: Env, dataDir: string, publicUrl: string): AuthConfig {
  if (env.CLERK_SECRET_KEY || env.CLERK_PUBLISHABLE_KEY) {
    return {
      mode: 'clerk',
      secretKey: need(env, 'CLERK_SECRET_KEY', 'when CLERK_PUBLISHABLE_KEY is set'),
      publishableKey: need(env, 'CLERK_PUBLISHABLE_KEY', 'when CLERK_SECRET_KEY is set'),
      jwtKey: env.CLERK_JWT_KEY,
      authorizedParties: authorizedParties(env, publicUrl),
      jwtTemplate: env.CLERK_JWT_TEMPLATE,
    };
  }
  refuseBeyondLoopback(env, publicUrl, 'ALLOW_EMBEDDED_AUTH', 'the embedded sign-in (anyone signs in as any email)', 'CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY');
  return { mode: 'embedded', keyDir: path.join(dataDir, 'keys') };
}

function paymentsConfig(env: Env, publicUrl: string): PaymentsConfig {
  if (env.STRIPE_SECRET_KEY) {
    return {
      mode: 'stripe',
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: need(env, 'STRIPE_WEBHOOK_SECRET', 'when STRIPE_SECRET_KEY is set'),
      apiBase: env.STRIPE_API_BASE,
    };
  }
  refuseBeyondLoopback(env, publicUrl, 'ALLOW_LOCAL_PAYMENTS', 'the local payments (plans granted for free)', 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  return { mode: 'local' };
}

function imageModelConfig(env: Env): ImageModelConfig {
  switch (env.IMAGE_MODEL) {
    case 'local':
      return { kind: 'local' };
    case 'openai':
      return {
        kind: 'openai',
        apiKey: need(env, 'OPENAI_API_KEY', 'when IMAGE_MODEL=openai'),
        baseUrl: env.OPENAI_BASE_URL,
        imageModel: env.OPENAI_IMAGE_MODEL,
        chatModel: env.OPENAI_CHAT_MODEL,
      };
    case 'fal':
      return { kind: 'fal', apiKey: need(env, 'FAL_KEY', 'when IMAGE_MODEL=fal'), baseUrl: env.FAL_BASE_URL };
  }
}

function need<K extends keyof Env>(env: Env, variable: K, when: string): NonNullable<Env[K]> {
  const value = env[variable];
  if (value === undefined || value === null) throw new ConfigError(variable, `is required ${when}`);
  return value as NonNullable<Env[K]>;
}

/**
 * Clerk checks a session token's `azp` against these origins only when there are some: with none,
 * a token minted for any other site on the same Clerk instance would pass. Unset: PUBLIC_URL's.
 */
function authorizedParties(env: Env, publicUrl: string): string[] {
  const listed = splitList(env.CLERK_AUTHORIZED_PARTIES);
  if (listed.length === 0) return [new URL(publicUrl).origin];
  for (const party of listed) {
    if (URL.parse(party)?.origin !== party) {
      throw new ConfigError('CLERK_AUTHORIZED_PARTIES', `must list origins such as https://app.example.com, comma-separated (got "${party}")`);
    }
  }
  return listed;
}

/**
 * The keyless modes are safe only where no one else can reach the app: PUBLIC_URL and the listener
 * (HOST) both on loopback. NODE_ENV says nothing about that, so beyond loopback it takes the flag.
 */
function refuseBeyondLoopback(env: Env, publicUrl: string, flag: 'ALLOW_EMBEDDED_AUTH' | 'ALLOW_LOCAL_PAYMENTS', mode: string, keys: string): void {
  if (env[flag] || (isLoopback(new URL(publicUrl).hostname) && isLoopback(env.HOST))) return;
  throw new ConfigError(flag, `must be true to run ${mode} beyond loopback (PUBLIC_URL ${publicUrl}, HOST ${env.HOST}): set ${keys}, or ${flag}=true for a trial`);
}

function isLoopback(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
