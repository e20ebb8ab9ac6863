import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Second provider subscriptions (two checkouts raced) that were cancelled and refunded: one row per
 * subscription, so that each is counted and logged once, and the seller's profile can say so.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('cancelled_second_subscriptions')
    .addColumn('provider_subscription_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kept_subscription_id', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('refunded', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('cancelled_second_subscriptions_user_idx')
    .on('cancelled_second_subscriptions')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('cancelled_second_subscriptions').execute();
}
