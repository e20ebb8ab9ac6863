import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@prodshot/testing';
import { createDatabase, pingDatabase } from './index.js';

const stack = inject('stack');
let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase(stack);
});
afterAll(async () => {
  await test.drop();
});

describe('connection pool', () => {
  // Postgres stopping (or an operator's pg_terminate_backend) tells every session so, also one
  // a transaction holds between two queries; unheard, that 'error' event would end the process.
  it('survives Postgres ending a connection a transaction holds between queries, then serves on a new one', async () => {
    const db = createDatabase({ connectionString: test.url, max: 1 });
    try {
      const transaction = db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx);
        await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(test.db);
        await sleep(300);
        await sql`select 1`.execute(tx);
      });
      await expect(transaction).rejects.toThrow();
      await expect(pingDatabase(db)).resolves.toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
