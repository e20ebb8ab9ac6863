import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A seller's webhook endpoints and every delivery made to them. The secret is kept as it is (not
 * hashed): each delivery is signed with it. A deleted endpoint keeps its row (deleted_at) so its
 * deliveries stay on record and none of them is sent again.
 *
 * A delivery is one event to one endpoint: (endpoint_id, event_id) is unique, so an event
 * recorded twice (two workers settling a batch's last generations at once) is delivered once.
 * `credits_low_sent_at` arms credits.low: set when it fired, cleared when the balance climbs back,
 * so it fires once per crossing rather than on every reservation below the threshold.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', sql`text[]`, (c) =>
      c
        .notNull()
        .check(
          sql`cardinality(events) > 0 and events <@ array['generation.completed', 'generation.failed', 'batch.completed', 'credits.low']::text[]`,
        ),
    )
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('credits_low_threshold', 'integer', (c) => c.check(sql`credits_low_threshold >= 0`))
    .addColumn('credits_low_sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_user_idx')
    .on('webhook_endpoints')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('endpoint_id', 'uuid', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'delivered', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('webhook_deliveries_event_unique', ['endpoint_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
