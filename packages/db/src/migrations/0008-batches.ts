import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A batch: many uploads, one choice, one reservation. It owns its generations (one per photo, in
 * the order the seller listed them), and an Idempotency-Key may name the batch it started.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('choice', 'jsonb', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('batches_user_idx').on('batches').column('user_id').execute();
  await db.schema
    .alterTable('generations')
    .addColumn('batch_id', 'uuid', (c) => c.references('batches.id').onDelete('cascade'))
    .addColumn('batch_position', 'smallint')
    .execute();
  await db.schema
    .createIndex('generations_batch_idx')
    .on('generations')
    .columns(['batch_id', 'batch_position'])
    .where(sql.ref('batch_id'), 'is not', null)
    .execute();
  await db.schema
    .alterTable('idempotency_keys')
    .addColumn('batch_id', 'uuid', (c) => c.references('batches.id').onDelete('cascade'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('batch_id').execute();
  await db.schema.dropIndex('generations_batch_idx').execute();
  await db.schema.alterTable('generations').dropColumn('batch_position').dropColumn('batch_id').execute();
  await db.schema.dropTable('batches').execute();
}
