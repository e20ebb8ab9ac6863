import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(1).max(65_535);

export const WORKER_CPU_PRIORITIES = ['idle', 'low', 'normal'] as const;
export type WorkerCpuPriority = (typeof WORKER_CPU_PRIORITIES)[number];

const urlWithProtocol = (protocols: string[]) =>
  z.url().refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
    message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  });

/**
 * Every variable the api and the worker read. Optional connection URLs select the mode of each
 * part: a URL or key given means the production service, none means the embedded default.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_URL: z.url().optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),

  DATABASE_URL: urlWithProtocol(['postgres', 'postgresql']).optional(),
  REDIS_URL: urlWithProtocol(['redis', 'rediss']).optional(),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:{}_-]+$/, 'may hold letters, digits and : { } _ - only')
    .default('prodshot'),

  DATA_DIR: z.string().min(1).default('.data'),
  /** Ports of the embedded Postgres and Redis that `npm start` runs when no URL is given. */
  EMBEDDED_POSTGRES_PORT: port.default(54329),
  EMBEDDED_REDIS_PORT: port.default(63799),
  STORAGE_DIR: z.string().min(1).optional(),
  MINIO_ENDPOINT: z.string().min(1).optional(),
  MINIO_PORT: port.optional(),
  MINIO_USE_SSL: bool.default(false),
  MINIO_ACCESS_KEY: z.string().min(1).optional(),
  MINIO_SECRET_KEY: z.string().min(1).optional(),
  MINIO_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('prodshot'),
  MINIO_REGION: z.string().min(1).default('us-east-1'),
  MINIO_PUBLIC_URL: z.url().optional(),
  SIGNED_URL_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The least time a signed file URL stays valid once handed out. */
  SIGNED_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .max(7 * 24 * 3600)
    .default(3600),
  /** Signed URLs are cut once per window (on its boundaries), so the same file keeps one cacheable URL through it. */
  SIGNED_URL_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .default(3600),
  /** An object-store call (MinIO or the folder) that takes longer fails, so a stalled store cannot hold a request or a job forever. */
  STORAGE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(10 * 60_000)
    .default(30_000),

  /** Attempts per job and the first retry delay (doubling after); the last failure refunds. */
  JOB_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  JOB_BACKOFF_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
  /** An attempt still running after this fails (and is retried, then refunded): the backstop for any call that never returns. */
  JOB_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(60 * 60_000)
    .default(10 * 60_000),
  /** Render jobs a worker runs at once, each on its own engine thread. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Interactive jobs (prompt enhancement, style recommendations, upload analysis) a worker runs at once, on engine threads renders never take. */
  WORKER_INTERACTIVE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** CPUs one worker may use (its pod's CPU request or limit); unset: every core of the machine. Sizes the threads each render gets. */
  WORKER_CPUS: z.coerce.number().int().min(1).max(256).optional(),
  /** How renders yield the CPU to the API and Postgres on a shared machine: idle (SCHED_IDLE render threads), low (nice 10) or normal. */
  WORKER_CPU_PRIORITY: z.enum(WORKER_CPU_PRIORITIES).default('idle'),
  WORKER_HEALTH_PORT: port.optional(),
  /** How often the sweeper looks for generations whose jobs vanished, and how old such a generation must be. */
  SWEEPER_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
  SWEEPER_STALE_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(10 * 60_000),
  /** How often expired history (past the owner's plan's days) is deleted, files then rows. */
  HISTORY_PURGE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(10_000)
    .default(60 * 60_000),
  /** An engine call running longer than this fails (and is retried, then refunded). */
  ENGINE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(30 * 60_000)
    .default(120_000),
  /** How long a worker's claim on a job lasts without renewal; a crashed worker's job is retried after it. */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),

  CLERK_SECRET_KEY: z.string().startsWith('sk_').optional(),
  CLERK_PUBLISHABLE_KEY: z.string().startsWith('pk_').optional(),
  CLERK_JWT_KEY: z.string().min(1).optional(),
  CLERK_AUTHORIZED_PARTIES: z.string().optional(),
  /** The Clerk JWT template the web app asks tokens from; unset, Clerk's session token. It names a path segment of Clerk's API. */
  /** Clerk's Backend API, where a seller's verified email is looked up; unset, https://api.clerk.com (a fake in tests). */
  CLERK_API_URL: z.url().optional(),
  CLERK_JWT_TEMPLATE: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a JWT template name: letters, digits, ".", "_" and "-", at most 100')
    .optional(),

  STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
  STRIPE_API_BASE: z.url().optional(),

  /**
   * The embedded sign-in and the local payments run without keys only where the app is reached
   * from this machine alone (PUBLIC_URL and HOST on loopback), and answer loopback clients alone
   * (the socket's peer and every X-Forwarded-For hop); an operator opts in to anywhere else with
   * these, for a trial.
   */
  ALLOW_EMBEDDED_AUTH: bool.default(false),
  ALLOW_LOCAL_PAYMENTS: bool.default(false),

  IMAGE_MODEL: z.enum(['local', 'openai', 'fal']).default('local'),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_IMAGE_MODEL: z.string().min(1).optional(),
  OPENAI_CHAT_MODEL: z.string().min(1).optional(),
  FAL_KEY: z.string().min(1).optional(),
  FAL_BASE_URL: z.url().optional(),
  /** A salient-object ONNX graph for the cutout (ISNet or BiRefNet family); unset: ISNet from @imgly/background-removal-data. */
  CUTOUT_MODEL_PATH: z.string().min(1).optional(),
  /** How that graph wants its input normalised. */
  CUTOUT_MODEL_FAMILY: z.enum(['isnet', 'birefnet']).default('isnet'),
  /** The square size the graph runs at; unset: 768 for the packaged ISNet, the graph's own size for a file. */
  CUTOUT_MODEL_INPUT_SIZE: z.coerce.number().int().min(256).max(2048).optional(),

  /** Operator credentials for bull-board at /admin/queues; with neither set the board is not mounted. */
  ADMIN_USER: z.string().min(1).optional(),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  /** Per-user requests per minute on the generation calls (a batch counts each photo) and on uploads. */
  RATE_LIMIT_GENERATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Style recommendations and prompt enhancement: free of credits, so held to fewer calls per user. */
  RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Another take of an output and a retry of a failed style: paid like a generation, on a budget of their own. */
  RATE_LIMIT_ITERATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Marketplace exports (a worker render each) and compliance reports (a worker measurement each). */
  RATE_LIMIT_EXPORTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  RATE_LIMIT_COMPLIANCE_CHECKS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Batch zips, each streamed from storage through the API, counted per batch owner. */
  RATE_LIMIT_ARCHIVES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Checkouts, add-on purchases, billing-portal sessions and cancellations: each one a call to Stripe. */
  RATE_LIMIT_PAYMENTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Every request made with one API key, whatever the route, beside its owner's per-route limits: a leaked key is throttled on its own. */
  RATE_LIMIT_API_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /**
   * Load shedding: above this event-loop delay (ms) or heap the API answers 503 with Retry-After;
   * 0 turns a check off. Off unless set: a laptop or test run blocks its loop on imports and
   * builds, which is no reason to refuse requests (infra/k8s sets it for production).
   */
  SHED_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(0),
  SHED_MAX_HEAP_BYTES: z.coerce.number().int().min(0).default(0),
  SHED_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),

  /** The API's operator listener (/metrics, /admin/queues, /health, /live): loopback unless OPS_HOST says otherwise. */
  OPS_PORT: port.default(9464),
  OPS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Which peers' X-Forwarded-* headers the API believes (client address, protocol): true, false,
   * or a comma list of addresses, CIDRs and loopback / linklocal / uniquelocal.
   */
  TRUST_PROXY: z.string().min(1).default('loopback'),

  /**
   * Uploads one API process decodes at once (each decode can hold ~160 MB of pixels) and how
   * many more may wait for a turn; past that an upload answers 503 with SHED_RETRY_AFTER_SECONDS.
   */
  UPLOAD_DECODE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  UPLOAD_DECODE_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  /**
   * Engine work a day (UTC) for an account with no plan and no credits: upload analyses (the
   * cutout) and style recommendations (two hosted-model calls each). 0 gives none.
   */
  FREE_ANALYSES_PER_DAY: z.coerce.number().int().min(0).max(100_000).default(10),
  FREE_RECOMMENDATIONS_PER_DAY: z.coerce.number().int().min(0).max(100_000).default(10),
});

export type Env = z.infer<typeof envSchema>;
