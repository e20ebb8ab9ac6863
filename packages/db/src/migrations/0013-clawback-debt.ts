import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const KINDS_BEFORE = `'reserve', 'settle', 'refund', 'grant_subscription', 'grant_addon', 'reset_subscription', 'expire_subscription', 'revoke', 'restore'`;
const KINDS_AFTER = `${KINDS_BEFORE}, 'claw'`;

/**
 * A reversal reaches the credits queued work holds: a `claw` row takes a generation's held credits
 * back into the balance for the reversal's revoke to take, so that work failing later gives nothing
 * back. Clawed work that still stores its shot pays for it at settlement, and what the balance
 * cannot pay is debt (a count beside the balance, moved by the ledger's `debt_delta`) that the next
 * grant repays first.
 */
export async function up(db: AnyDb): Promise<void> {
  await setLedgerKinds(db, KINDS_AFTER);
  await db.schema
    .alterTable('credit_ledger')
    .addColumn('debt_delta', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('credit_balances')
    .addColumn('debt_credits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`debt_credits >= 0`),
    )
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('credit_balances').dropColumn('debt_credits').execute();
  await db.schema.alterTable('credit_ledger').dropColumn('debt_delta').execute();
  // Fails while claw rows exist: deleting them would unbalance the ledger.
  await setLedgerKinds(db, KINDS_BEFORE);
}

async function setLedgerKinds(db: AnyDb, kinds: string): Promise<void> {
  await sql`alter table credit_ledger drop constraint credit_ledger_kind_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_kind_check check (kind in (${sql.raw(kinds)}))`.execute(
    db,
  );
}
