import { sql } from 'kysely';
import type { CreditBalance } from '@prodshot/contracts';
import type { Db } from '../database.js';
import type { CreditPurchaseRow } from '../schema.js';
import { move, type LedgerResult, type Tx } from './credit-ledger.js';
import { heldIn, openHolds } from './credit-holds.js';

/** A grant that was paid for: recorded as a purchase that a refund or a dispute of its payments can take back. */
export interface PaidGrant {
  userId: string;
  amount: number;
  idempotencyKey: string;
  purchase?: { paymentRefs: string[] } | undefined;
}

/** What the balance holds of the purchase's bucket (asked of a live purchase: see isLive). */
export function bucketBalance(purchase: CreditPurchaseRow, current: CreditBalance): number {
  return purchase.bucket === 'addon' ? current.addOnCredits : current.subscriptionCredits;
}

/**
 * Takes up to `amount` of what open reservations hold of the purchase's bucket back into the
 * balance, the newest reservation first, one claw row per generation (for the revoke that follows
 * to take): what a clawed generation then fails gives nothing back. Answers how many came.
 */
export async function clawHolds(
  tx: Tx,
  current: CreditBalance,
  purchase: CreditPurchaseRow,
  amount: number,
  input: { idempotencyKey: string; reason?: string },
): Promise<number> {
  let clawed = 0;
  for (const hold of await openHolds(tx, purchase.user_id)) {
    const take = Math.min(amount - clawed, heldIn(purchase.bucket, hold));
    if (take <= 0) continue;
    await moveBucket(tx, current, purchase, 'claw', take, {
      ...input,
      idempotencyKey: `${input.idempotencyKey}:claw:${hold.generationId}`,
      generationId: hold.generationId,
    });
    clawed += take;
  }
  return clawed;
}

/** Net credits taken back from a purchase so far: its revokes less its restores. */
export async function takenBack(tx: Tx, purchaseKey: string): Promise<number> {
  const row = await tx
    .selectFrom('credit_ledger')
    .select(sql<string>`coalesce(-sum(subscription_delta + addon_delta), 0)`.as('taken'))
    .where('purchase_key', '=', purchaseKey)
    .executeTakeFirstOrThrow();
  return Number(row.taken);
}

export function moveBucket(
  tx: Tx,
  current: CreditBalance,
  purchase: CreditPurchaseRow,
  kind: 'revoke' | 'restore' | 'claw',
  delta: number,
  input: { idempotencyKey: string; reason?: string; purchaseKey?: string; generationId?: string },
  debt = 0,
): Promise<LedgerResult> {
  const subscription = purchase.bucket === 'subscription' ? delta : 0;
  return move(tx, current, purchase.user_id, kind, { subscription, addOn: delta - subscription, debt }, input);
}

export async function recordPurchase(tx: Tx, input: PaidGrant, bucket: CreditPurchaseRow['bucket']): Promise<void> {
  if (!input.purchase || input.amount <= 0) return;
  await tx
    .insertInto('credit_purchases')
    .values({ grant_key: input.idempotencyKey, user_id: input.userId, bucket, credits: input.amount })
    .onConflict((oc) => oc.column('grant_key').doNothing())
    .execute();
  await linkPayments(tx, input.idempotencyKey, input.purchase.paymentRefs);
}

export async function linkPayments(db: Db, grantKey: string, paymentRefs: string[]): Promise<void> {
  const refs = [...new Set(paymentRefs)];
  if (refs.length === 0) return;
  await db
    .insertInto('purchase_payments')
    .values(refs.map((payment_ref) => ({ payment_ref, grant_key: grantKey })))
    .onConflict((oc) => oc.column('payment_ref').doNothing())
    .execute();
}
