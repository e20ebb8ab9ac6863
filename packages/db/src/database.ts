import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// Return bigint columns (ledger ids, counts) as strings rather than lossy numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export interface CreateDatabaseOptions {
  connectionString: string;
  /** Pool size per process; the api and each worker hold their own pool. */
  max?: number;
  /** Bounded so that an unreachable Postgres surfaces as an error, not a hang. */
  connectionTimeoutMillis?: number;
  statementTimeoutMillis?: number;
}

export type Db = Kysely<Database>;

/**
 * The one transaction helper: `work` runs in a transaction on `db`, or inside the one `db` already
 * is (kysely cannot nest them), so a repository's several statements join their caller's.
 */
export function withTransaction<T>(db: Db, work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

export function createDatabase(options: CreateDatabaseOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
    statement_timeout: options.statementTimeoutMillis ?? 15_000,
    idleTimeoutMillis: 30_000,
  });
  // A client losing its connection (Postgres restarted, a backend terminated) must not crash the
  // process: the pool reports idle ones here; a checked-out one reports on itself, and its
  // pending or next query fails, which the caller handles. The pool drops it on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Round trip to Postgres, for health checks. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
