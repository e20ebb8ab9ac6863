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
  /** Credits this call moved, into or out of the balance or the debt (0 when it applied nothing). */
  moved: number;
  balance: CreditBalance;
}

export function toBalance(row: { subscription_credits: number; addon_credits: number } | undefined): CreditBalance {
  return { subscriptionCredits: row?.subscription_credits ?? 0, addOnCredits: row?.addon_credits ?? 0 };
}

/** The pools alone, as answers carry them. */
export function pools(current: CreditBalance): CreditBalance {
  return { subscriptionCredits: current.subscriptionCredits, addOnCredits: current.addOnCredits };
}

export function assertPositive(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('amount must be a whole number > 0');
}

/** A balance under its lock: the two pools, and the credits owed (see `spend`). */
export interface LockedBalance extends CreditBalance {
  debtCredits: number;
}

/** How far one movement moves each pool and the debt. */
export interface Deltas {
  subscription: number;
  addOn: number;
  debt?: number;
}

/** Locks the user's balance row, creating it first if needed: concurrent movements for one user queue up here. */
export async function lockBalance(tx: Tx, userId: string): Promise<LockedBalance> {
  const select = () =>
    tx
      .selectFrom('credit_balances')
      .select(['subscription_credits', 'addon_credits', 'debt_credits'])
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
  let row = await select();
  if (!row) {
    await tx
      .insertInto('credit_balances')
      .values({ user_id: userId })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    row = await select();
  }
  return { ...toBalance(row), debtCredits: row?.debt_credits ?? 0 };
}

/**
 * Spends `amount` as a reservation does: subscription credits first, then add-on credits, and
 * what the balance cannot pay becomes debt (only a shot stored on clawed credits spends past the
 * balance: reservations are refused first).
 */
export function spend(current: CreditBalance, amount: number): Deltas {
  const subscription = Math.min(current.subscriptionCredits, amount);
  const addOn = Math.min(current.addOnCredits, amount - subscription);
  return { subscription: -subscription, addOn: -addOn, debt: amount - subscription - addOn };
}

/** What of `amount` coming in repays debt first: the rest reaches the balance. */
export function repaid(current: LockedBalance, amount: number): number {
  return Math.min(current.debtCredits, amount);
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
  deltas: Deltas,
  input: { idempotencyKey: string; generationId?: string; reason?: string; purchaseKey?: string },
): Promise<LedgerResult> {
  const { subscription: subscriptionDelta, addOn: addOnDelta, debt: debtDelta = 0 } = deltas;
  const row = await tx
    .with('entry', (db) =>
      db
        .insertInto('credit_ledger')
        .values({
          user_id: userId,
          kind,
          subscription_delta: subscriptionDelta,
          addon_delta: addOnDelta,
          debt_delta: debtDelta,
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
      debt_credits: sql`debt_credits + ${debtDelta}`,
      updated_at: sql`now()`,
    })
    .where('user_id', '=', userId)
    .where(({ exists, selectFrom }) => exists(selectFrom('entry').select('id')))
    .returning(['subscription_credits', 'addon_credits'])
    .executeTakeFirst();
  return row
    ? {
        applied: true,
        moved: Math.abs(subscriptionDelta) + Math.abs(addOnDelta) + Math.abs(debtDelta),
        balance: toBalance(row),
      }
    : { applied: false, moved: 0, balance: pools(current) };
}

export async function keyUsed(tx: Tx, idempotencyKey: string): Promise<boolean> {
  const row = await tx
    .selectFrom('credit_ledger')
    .select('id')
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return row !== undefined;
}
