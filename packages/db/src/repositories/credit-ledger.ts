import { sql, type Transaction } from 'kysely';
import type { CreditBalance } from '@prodshot/contracts';
import type { Database, LedgerKind } from '../schema.js';

/**
 * The ledger's primitives: every movement locks the user's balance, then writes one row under its
 * idempotency key and moves the balance by it in the same statement.
 */
export type Tx = Transaction<Database>;

export interface LedgerResult {
  /** false when the idempotency key had already been used, or there was nothing to move: nothing moved this time. */
  applied: boolean;
  /** Credits this call moved (0 when it applied nothing). */
  moved: number;
  balance: CreditBalance;
}

export function toBalance(row: { subscription_credits: number; addon_credits: number } | undefined): CreditBalance {
  return { subscriptionCredits: row?.subscription_credits ?? 0, addOnCredits: row?.addon_credits ?? 0 };
}

export function assertPositive(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('amount must be a whole number > 0');
}

/** Locks the user's balance row, creating it first if needed: concurrent movements for one user queue up here. */
export async function lockBalance(tx: Tx, userId: string): Promise<CreditBalance> {
  const select = () => tx.selectFrom('credit_balances').select(['subscription_credits', 'addon_credits']).where('user_id', '=', userId).forUpdate().executeTakeFirst();
  let row = await select();
  if (!row) {
    await tx.insertInto('credit_balances').values({ user_id: userId }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    row = await select();
  }
  return toBalance(row);
}

/**
 * Writes the ledger row and moves the balance by it, in one statement (a movement sits on every
 * generation's accept path, where each round trip to Postgres is felt). The row's unique
 * idempotency key decides: a key used before inserts nothing, and then nothing moves. The caller
 * holds the balance's lock, so the balance this statement reads is the one `current` describes.
 */
export async function move(
  tx: Tx,
  current: CreditBalance,
  userId: string,
  kind: LedgerKind,
  subscriptionDelta: number,
  addOnDelta: number,
  input: { idempotencyKey: string; generationId?: string; reason?: string; purchaseKey?: string },
): Promise<LedgerResult> {
  const row = await tx
    .with('entry', (db) =>
      db
        .insertInto('credit_ledger')
        .values({
          user_id: userId,
          kind,
          subscription_delta: subscriptionDelta,
          addon_delta: addOnDelta,
          idempotency_key: input.idempotencyKey,
          generation_id: input.generationId ?? null,
          reason: input.reason ?? null,
          purchase_key: input.purchaseKey ?? null,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning('id'),
    )
    .updateTable('credit_balances')
    .set({
      subscription_credits: sql`subscription_credits + ${subscriptionDelta}`,
      addon_credits: sql`addon_credits + ${addOnDelta}`,
      updated_at: sql`now()`,
    })
    .where('user_id', '=', userId)
    .where(({ exists, selectFrom }) => exists(selectFrom('entry').select('id')))
    .returning(['subscription_credits', 'addon_credits'])
    .executeTakeFirst();
  return row
    ? { applied: true, moved: Math.abs(subscriptionDelta) + Math.abs(addOnDelta), balance: toBalance(row) }
    : { applied: false, moved: 0, balance: current };
}

export async function keyUsed(tx: Tx, idempotencyKey: string): Promise<boolean> {
  const row = await tx.selectFrom('credit_ledger').select('id').where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  return row !== undefined;
}
