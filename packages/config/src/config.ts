import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { authConfig, paymentsConfig } from './auth-payments-config.js';
import { ConfigError } from './config-error.js';
import type { Config, LoadConfigOptions } from './config-types.js';
import type { Env } from './env-schema.js';
import { isLoopback } from './loopback.js';
import { cutoutModelConfig, imageModelConfig } from './model-config.js';
import { need, parseEnv, refusePlaceholderSecrets, splitList } from './read-env.js';
import { storageConfig } from './storage-config.js';

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
      interactiveConcurrency: env.WORKER_INTERACTIVE_CONCURRENCY,
      cpus: env.WORKER_CPUS ?? availableParallelism(),
      cpuPriority: env.WORKER_CPU_PRIORITY,
      healthPort: env.WORKER_HEALTH_PORT,
      lockDurationMs: env.WORKER_LOCK_DURATION_MS,
      engineTimeoutMs: env.ENGINE_TIMEOUT_MS,
      sweeper: { intervalMs: env.SWEEPER_INTERVAL_MS, staleAfterMs: env.SWEEPER_STALE_AFTER_MS },
      historyPurgeIntervalMs: env.HISTORY_PURGE_INTERVAL_MS,
    },
    // A deployment on loopback (npm start) may deliver webhooks to its own machine, over http too, so a developer can receive them.
    webhooks: { loopbackReceivers: isLoopback(new URL(publicUrl).hostname) },
    auth: authConfig(env, dataDir, publicUrl),
    payments: paymentsConfig(env, publicUrl),
    imageModel: imageModelConfig(env),
    cutoutModel: cutoutModelConfig(env, options.cwd ?? process.cwd()),
    admin: adminConfig(env),
    rateLimits: {
      generationsPerMinute: env.RATE_LIMIT_GENERATIONS_PER_MINUTE,
      uploadsPerMinute: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
      freeEngineCallsPerMinute: env.RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE,
      iterationsPerMinute: env.RATE_LIMIT_ITERATIONS_PER_MINUTE,
      exportsPerMinute: env.RATE_LIMIT_EXPORTS_PER_MINUTE,
      complianceChecksPerMinute: env.RATE_LIMIT_COMPLIANCE_CHECKS_PER_MINUTE,
      archivesPerMinute: env.RATE_LIMIT_ARCHIVES_PER_MINUTE,
      paymentsPerMinute: env.RATE_LIMIT_PAYMENTS_PER_MINUTE,
      apiKeyRequestsPerMinute: env.RATE_LIMIT_API_KEY_REQUESTS_PER_MINUTE,
    },
    shedding: {
      maxEventLoopDelayMs: env.SHED_MAX_EVENT_LOOP_DELAY_MS,
      maxHeapBytes: env.SHED_MAX_HEAP_BYTES,
      retryAfterSeconds: env.SHED_RETRY_AFTER_SECONDS,
    },
    ops: { host: env.OPS_HOST, port: env.OPS_PORT },
    trustProxy: trustProxyConfig(env.TRUST_PROXY),
    uploads: { decodeConcurrency: env.UPLOAD_DECODE_CONCURRENCY, decodeQueue: env.UPLOAD_DECODE_QUEUE },
    freeAllowance: {
      analysesPerDay: env.FREE_ANALYSES_PER_DAY,
      recommendationsPerDay: env.FREE_RECOMMENDATIONS_PER_DAY,
    },
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
      throw new ConfigError(
        'TRUST_PROXY',
        `must be true, false, or a comma list of addresses, CIDRs, loopback, linklocal or uniquelocal (got "${entry}")`,
      );
    }
  }
  return entries;
}

function adminConfig(env: Env): Config['admin'] {
  if (!env.ADMIN_USER && !env.ADMIN_PASSWORD) return undefined;
  return {
    user: need(env, 'ADMIN_USER', 'when ADMIN_PASSWORD is set'),
    password: need(env, 'ADMIN_PASSWORD', 'when ADMIN_USER is set'),
  };
}
