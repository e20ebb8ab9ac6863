import { sql, type Kysely } from 'kysely';

// Kysely migrations must accept any database shape: the schema type describes the end state.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('clerk_id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The dashboard, the profile and /all-uploads list a user's newest uploads first.
  await db.schema.createIndex('images_user_created_idx').on('images').columns(['user_id', 'created_at desc']).execute();

  await db.schema
    .createTable('generations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Deleting an upload keeps its generations in history (docs/decisions.md).
    .addColumn('image_id', 'uuid', (c) => c.references('images.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('manual', 'smart', 'remove-background', 'generate-background')`),
    )
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'running', 'complete', 'failed')`),
    )
    .addColumn('stage', 'text')
    .addColumn('request', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('product_info', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('generations_user_created_idx')
    .on('generations')
    .columns(['user_id', 'created_at desc'])
    .execute();
  // The sweeper scans only unfinished generations.
  await db.schema
    .createIndex('generations_unfinished_idx')
    .on('generations')
    .columns(['updated_at'])
    .where(sql.ref('status'), 'in', ['queued', 'running'])
    .execute();

  await db.schema
    .createTable('generation_styles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('generation_id', 'uuid', (c) => c.notNull().references('generations.id').onDelete('cascade'))
    .addColumn('index', 'integer', (c) => c.notNull().check(sql`index >= 0`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text')
    .addColumn('background_type', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'running', 'complete', 'failed')`),
    )
    .addColumn('progress', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`progress between 0 and 100`),
    )
    .addColumn('result_key', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('generation_styles_slot_unique', ['generation_id', 'index'])
    .execute();

  await db.schema
    .createTable('credit_balances')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('subscription_credits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`subscription_credits >= 0`),
    )
    .addColumn('addon_credits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`addon_credits >= 0`),
    )
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(sql`kind in ('reserve', 'settle', 'refund', 'grant_subscription', 'grant_addon', 'reset_subscription')`),
    )
    .addColumn('subscription_delta', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('addon_delta', 'integer', (c) => c.notNull().defaultTo(0))
    // A retried job or a replayed webhook carries the same key, so it cannot move credits twice.
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('generation_id', 'uuid', (c) => c.references('generations.id').onDelete('set null'))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('credit_ledger_user_created_idx')
    .on('credit_ledger')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('credit_ledger_generation_idx').on('credit_ledger').column('generation_id').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('none', 'starter', 'growth', 'pro')`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('stripe', 'local')`))
    .addColumn('provider_customer_id', 'text')
    .addColumn('provider_subscription_id', 'text', (c) => c.unique())
    .addColumn('pending_plan', 'text')
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('current_period_start', 'timestamptz')
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('subscriptions_customer_idx')
    .on('subscriptions')
    .column('provider_customer_id')
    .execute();

  await db.schema
    .createTable('processed_webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'processed_webhook_events',
    'subscriptions',
    'credit_ledger',
    'credit_balances',
    'generation_styles',
    'generations',
    'images',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
