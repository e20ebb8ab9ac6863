import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A caller's Idempotency-Key and what its first request started: a repeat within the window is
 * answered with that generation or upload instead of starting (and charging) a second one.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('generation_id', 'uuid', (c) => c.references('generations.id').onDelete('cascade'))
    .addColumn('image_id', 'uuid', (c) => c.references('images.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
