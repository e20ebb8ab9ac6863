import path from 'node:path';
import type { StorageConfig } from './config-types.js';
import { ConfigError } from './config-error.js';
import type { Env } from './env-schema.js';
import { need } from './read-env.js';

const S3_PRESIGN_MAX_SECONDS = 7 * 24 * 3600;

export function storageConfig(env: Env, dataDir: string): StorageConfig {
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
    throw new ConfigError(
      'SIGNED_URL_WINDOW_SECONDS',
      `plus SIGNED_URL_TTL_SECONDS (rounded up to whole windows) must not exceed 7 days with MinIO: URLs would live ${longest} s`,
    );
  }
  return window;
}
