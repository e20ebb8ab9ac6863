import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const KINDS_BEFORE = `'reserve', 'settle', 'refund', 'grant_subscription', 'grant_addon', 'reset_subscription'`;
const KINDS_AFTER = `${KINDS_BEFORE}, 'expire_subscription', 'revoke', 'restore'`;

/**
 * Money taken back and paid periods that end: the ledger learns to expire subscription credits
 * and to take back (and give back) a purchase's credits, each purchase remembers which payments
 * paid for it, and a subscription remembers the last provider event applied to it.
 */
export async function up(db: AnyDb): Promise<void> {
  await setLedgerKinds(db, KINDS_AFTER);
  await db.schema.alterTable('credit_ledger').addColumn('purchase_key', 'text').execute();
  await db.schema
    .createIndex('credit_ledger_purchase_idx')
    .on('credit_ledger')
    .column('purchase_key')
    .where(sql.ref('purchase_key'), 'is not', null)
    .execute();
  // A refund finds the user's current period (the newest reset or expiry) on every failed slot.
  await db.schema
    .createIndex('credit_ledger_period_idx')
    .on('credit_ledger')
    .columns(['user_id', 'id'])
    .where(sql.ref('kind'), 'in', ['reset_subscription', 'expire_subscription'])
    .execute();

  await db.schema.alterTable('subscriptions').addColumn('provider_event_at', 'timestamptz').execute();

  await db.schema
    .createTable('credit_purchases')
    .addColumn('grant_key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bucket', 'text', (c) => c.notNull().check(sql`bucket in ('subscription', 'addon')`))
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // No foreign key to credit_purchases: Stripe may announce an invoice's payment before the invoice's grant.
  await db.schema
    .createTable('purchase_payments')
    .addColumn('payment_ref', 'text', (c) => c.primaryKey())
    .addColumn('grant_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('purchase_payments').execute();
  await db.schema.dropTable('credit_purchases').execute();
  await db.schema.alterTable('subscriptions').dropColumn('provider_event_at').execute();
  await db.schema.dropIndex('credit_ledger_period_idx').execute();
  await db.schema.dropIndex('credit_ledger_purchase_idx').execute();
  await db.schema.alterTable('credit_ledger').dropColumn('purchase_key').execute();
  // Fails while rows of the new kinds exist: deleting them would unbalance the ledger.
  await setLedgerKinds(db, KINDS_BEFORE);
}

async function setLedgerKinds(db: AnyDb, kinds: string): Promise<void> {
  await sql`alter table credit_ledger drop constraint credit_ledger_kind_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_kind_check check (kind in (${sql.raw(kinds)}))`.execute(
    db,
  );
}
