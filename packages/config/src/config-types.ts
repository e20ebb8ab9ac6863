import type { Env, WorkerCpuPriority } from './env-schema.js';

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
    }
) & {
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
      /** Clerk's Backend API (CLERK_API_URL); undefined, Clerk's own. */
      apiUrl: string | undefined;
    }
  | {
      mode: 'embedded';
      keyDir: string;
      /** ALLOW_EMBEDDED_AUTH: the sign-in answers clients beyond loopback too; otherwise loopback clients alone. */
      beyondLoopback: boolean;
    };

export type PaymentsConfig =
  | { mode: 'stripe'; secretKey: string; webhookSecret: string; apiBase: string | undefined }
  /** beyondLoopback (ALLOW_LOCAL_PAYMENTS): the free purchases answer clients beyond loopback too; otherwise loopback clients alone. */
  | { mode: 'local'; beyondLoopback: boolean };

/**
 * A hosted model's `timeoutMs` is the worker's ENGINE_TIMEOUT_MS: an adapter that knows the budget
 * gives up at once on a Retry-After it cannot wait out, so the wait reaches the job's retry.
 */
export type ImageModelConfig =
  | { kind: 'local' }
  | {
      kind: 'openai';
      apiKey: string;
      baseUrl: string | undefined;
      imageModel: string | undefined;
      chatModel: string | undefined;
      timeoutMs: number;
    }
  | { kind: 'fal'; apiKey: string; baseUrl: string | undefined; timeoutMs: number };

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
  /** loopbackReceivers: PUBLIC_URL is on loopback, so webhook URLs may be http and on loopback too. */
  webhooks: { loopbackReceivers: boolean };
  dataDir: string;
  embedded: { postgresPort: number; redisPort: number };
  databaseUrl: string | undefined;
  redis: { url: string | undefined; queuePrefix: string };
  jobs: { attempts: number; backoffMs: number; deadlineMs: number };
  storage: StorageConfig;
  worker: {
    /** Render jobs at once, on as many engine threads. */
    concurrency: number;
    /** Interactive jobs at once, on engine threads of their own so they never wait behind a render. */
    interactiveConcurrency: number;
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
  /** Per-user calls per minute of each costly kind (RATE_LIMIT_*). */
  rateLimits: {
    generationsPerMinute: number;
    uploadsPerMinute: number;
    freeEngineCallsPerMinute: number;
    iterationsPerMinute: number;
    exportsPerMinute: number;
    complianceChecksPerMinute: number;
    archivesPerMinute: number;
    paymentsPerMinute: number;
    /** Every request made with one API key. */
    apiKeyRequestsPerMinute: number;
  };
  shedding: { maxEventLoopDelayMs: number; maxHeapBytes: number; retryAfterSeconds: number };
  /** Where operator endpoints listen: the API's ops port, and the host the worker's health port binds too. */
  ops: { host: string; port: number };
  /** Fastify's trustProxy: whose X-Forwarded-For and -Proto to believe (TRUST_PROXY). */
  trustProxy: boolean | string[];
  /** Decodes of uploads at once, and how many may wait; the rest are refused with 503. */
  uploads: { decodeConcurrency: number; decodeQueue: number };
  /** What an account with no plan and no credits may run on the engine each UTC day; past it, 402. */
  freeAllowance: { analysesPerDay: number; recommendationsPerDay: number };
}

export type RequiredVariable = 'DATABASE_URL' | 'REDIS_URL';

export interface LoadConfigOptions {
  /** Variables this process cannot run without (the api and worker need both URLs). */
  require?: RequiredVariable[];
  /** Base for relative paths such as DATA_DIR; defaults to the working directory. */
  cwd?: string;
}
