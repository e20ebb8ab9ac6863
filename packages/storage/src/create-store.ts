import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StorageConfig } from '@prodshot/config';
import { FsObjectStore } from './fs-store.js';
import { MinioObjectStore } from './minio-store.js';
import type { ObjectStore } from './object-store.js';
import { withTimeouts } from './timed-store.js';

export interface CreateStoreOptions {
  /** Signs filesystem URLs; see resolveSigningSecret. Unused for S3, which presigns its own. */
  signingSecret: string | undefined;
}

/** The configured store, every call bounded by the configured timeout. */
export function createObjectStore(config: StorageConfig, options: CreateStoreOptions): ObjectStore {
  return withTimeouts(createDriver(config, options), config.timeoutMs);
}

function createDriver(config: StorageConfig, options: CreateStoreOptions): ObjectStore {
  if (config.driver === 'minio') return new MinioObjectStore(config);
  if (!options.signingSecret) throw new Error('The filesystem store needs a signing secret');
  return new FsObjectStore({
    dir: config.dir,
    publicUrl: config.linkBase,
    signingSecret: options.signingSecret,
    ttlSeconds: config.ttlSeconds,
    windowSeconds: config.windowSeconds,
  });
}

/** The configured secret, or one generated once under the data folder (embedded mode). */
export async function resolveSigningSecret(config: StorageConfig, dataDir: string): Promise<string | undefined> {
  if (config.driver !== 'fs') return undefined;
  return config.signingSecret ?? loadOrCreateSecret(path.join(dataDir, 'keys', 'url-signing.secret'));
}

/** The api and the worker both sign URLs, so they must share one secret: the first to boot writes it. */
export async function loadOrCreateSecret(file: string): Promise<string> {
  return (await loadOrCreateFile(file, () => randomBytes(32).toString('base64url'))).trim();
}

/**
 * Reads a file that processes booting together must agree on (a secret, a key), creating it
 * once if absent. A hard link appears whole or not at all, so a racing process never reads a
 * half-written file, and exactly one candidate wins.
 */
export async function loadOrCreateFile(file: string, create: () => string): Promise<string> {
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing) return existing;
  await mkdir(path.dirname(file), { recursive: true });
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(candidate, create(), { mode: 0o600 });
  try {
    await link(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(candidate, { force: true });
  }
  return readFile(file, 'utf8');
}
