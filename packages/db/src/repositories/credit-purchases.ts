import { sql } from 'kysely';
import type { CreditBalance } from '@prodshot/contracts';
import type { Db } from '../database.js';
import type { CreditPurchaseRow } from '../schema.js';
import { move, type LedgerResult, type Tx } from './credit-ledger.js';
import { isCurrentPeriod } from './credit-periods.js';

/** A grant that was paid for: recorded as a purchase that a refund or a dispute of its payments can take back. */
export interface PaidGrant {
  userId: string;
  amount: number;
  idempotencyKey: string;
  purchase?: { paymentRefs: string[] } | undefined;
}

/** What the user still holds of the purchase's bucket: nothing of a plan period that is over. */
export async function unspent(tx: Tx, purchase: CreditPurchaseRow, current: CreditBalance): Promise<number> {
  if (purchase.bucket === 'addon') return current.addOnCredits;
  return (await isCurrentPeriod(tx, purchase)) ? current.subscriptionCredits : 0;
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
  kind: 'revoke' | 'restore',
  delta: number,
  input: { idempotencyKey: string; reason?: string; purchaseKey: string },
): Promise<LedgerResult> {
  const subscriptionDelta = purchase.bucket === 'subscription' ? delta : 0;
  return move(tx, current, purchase.user_id, kind, subscriptionDelta, delta - subscriptionDelta, input);
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
