import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StorageConfig } from '@prodshot/config';
import { FsObjectStore } from './fs-store.js';
import { MinioObjectStore } from './minio-store.js';
import type { ObjectStore } from './object-store.js';

export interface CreateStoreOptions {
  publicUrl: string;
  /** Where to keep a generated signing secret when none is configured (embedded mode). */
  dataDir: string;
  minioPublicUrl?: string | undefined;
}

export async function createObjectStore(config: StorageConfig, options: CreateStoreOptions): Promise<ObjectStore> {
  if (config.driver === 'minio') {
    return new MinioObjectStore({ ...config, publicUrl: options.minioPublicUrl });
  }
  const signingSecret = config.signingSecret ?? (await loadOrCreateSecret(path.join(options.dataDir, 'keys', 'url-signing.secret')));
  return new FsObjectStore({ dir: config.dir, publicUrl: options.publicUrl, signingSecret, ttlSeconds: config.ttlSeconds });
}

/** The api and the worker both sign URLs, so they must share one secret: the first to boot writes it. */
export async function loadOrCreateSecret(file: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  // A hard link appears whole or not at all, so a racing process never reads a half-written secret.
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(candidate, randomBytes(32).toString('base64url'), { mode: 0o600 });
  try {
    await link(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(candidate, { force: true });
  }
  return (await readFile(file, 'utf8')).trim();
}
