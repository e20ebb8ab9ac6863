import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@prodshot/testing';
import { createDatabase, migrateToLatest, pingDatabase } from './index.js';

const stack = inject('stack');
let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase(stack);
});
afterAll(async () => {
  await test.drop();
});

describe('database', () => {
  it('answers a ping over a real connection', async () => {
    await expect(pingDatabase(test.db)).resolves.toBeUndefined();
  });

  it('starts from the migrated template and re-running migrations is a no-op', async () => {
    const { results } = await migrateToLatest(test.db);
    expect(results).toEqual([]);
    const tables = await sql<{
      tablename: string;
    }>`select tablename from pg_tables where schemaname = 'public' order by 1`.execute(test.db);
    expect(tables.rows.map((r) => r.tablename)).toEqual(
      expect.arrayContaining([
        'users',
        'images',
        'generations',
        'generation_styles',
        'credit_balances',
        'credit_ledger',
        'subscriptions',
        'processed_webhook_events',
      ]),
    );
  });

  it('refuses a second ledger row with the same idempotency key', async () => {
    const user = await test.db
      .insertInto('users')
      .values({ clerk_id: 'user_1', email: 'a@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = { user_id: user.id, kind: 'grant_addon' as const, addon_delta: 100, idempotency_key: 'evt_1' };
    await test.db.insertInto('credit_ledger').values(row).execute();
    await expect(test.db.insertInto('credit_ledger').values(row).execute()).rejects.toThrow(/duplicate key/);
  });

  it('never lets a balance go negative', async () => {
    const user = await test.db
      .insertInto('users')
      .values({ clerk_id: 'user_2', email: 'b@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await test.db.insertInto('credit_balances').values({ user_id: user.id, subscription_credits: 1 }).execute();
    await expect(
      test.db
        .updateTable('credit_balances')
        .set({ subscription_credits: sql`subscription_credits - 2` })
        .where('user_id', '=', user.id)
        .execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it('keeps one style row per slot of a generation', async () => {
    const user = await test.db
      .insertInto('users')
      .values({ clerk_id: 'user_3', email: 'c@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const generation = await test.db
      .insertInto('generations')
      .values({ user_id: user.id, image_id: null, kind: 'smart', stage: null, error: null, request: {} })
      .returning('id')
      .executeTakeFirstOrThrow();
    const slot = {
      generation_id: generation.id,
      index: 0,
      name: 'Marble',
      prompt: null,
      background_type: null,
      result_key: null,
      error: null,
    };
    await test.db.insertInto('generation_styles').values(slot).execute();
    await expect(test.db.insertInto('generation_styles').values(slot).execute()).rejects.toThrow(/duplicate key/);
  });
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
