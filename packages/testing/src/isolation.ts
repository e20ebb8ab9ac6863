import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, type Db } from '@prodshot/db';
import { ensureDatabase } from '@prodshot/embedded';
import { FsObjectStore, MinioObjectStore } from '@prodshot/storage';
import type { StackInfo } from './stack-info.js';

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, migrated database copied from the template: no test sees another's rows. */
export async function createTestDatabase(stack: StackInfo): Promise<TestDatabase> {
  const name = uniqueName('test');
  await ensureDatabase(stack.postgresAdminUrl, name, stack.templateDatabase);
  const url = new URL(stack.postgresAdminUrl);
  url.pathname = `/${name}`;
  const db = createDatabase({ connectionString: url.toString(), max: 5 });
  return {
    url: url.toString(),
    db,
    drop: async () => {
      // A test may already have closed the pool to simulate an outage.
      await db.destroy().catch(() => {});
      const admin = new pg.Client({ connectionString: stack.postgresAdminUrl });
      await admin.connect();
      try {
        await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** BullMQ key prefix of its own, so queues of parallel test files never meet. */
export function uniqueQueuePrefix(): string {
  return uniqueName('test');
}

export interface TestFsStore {
  store: FsObjectStore;
  dir: string;
  signingSecret: string;
  cleanup(): Promise<void>;
}

export async function createTestFsStore(publicUrl = 'http://127.0.0.1:3000'): Promise<TestFsStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prodshot-test-storage-'));
  const signingSecret = randomBytes(32).toString('hex');
  const store = new FsObjectStore({ dir, publicUrl, signingSecret, ttlSeconds: 300, windowSeconds: 3600 });
  await store.ensureReady();
  return { store, dir, signingSecret, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A bucket of its own on the stack's S3 endpoint. */
export async function createTestS3Store(stack: StackInfo): Promise<MinioObjectStore> {
  const store = new MinioObjectStore({
    ...stack.s3,
    bucket: uniqueName('test').replace('_', '-'),
    ttlSeconds: 300,
    windowSeconds: 3600,
  });
  await store.ensureReady();
  return store;
}
