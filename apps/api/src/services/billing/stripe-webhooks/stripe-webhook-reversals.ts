import type Stripe from 'stripe';
import type { Repositories } from '@prodshot/db';
import type { CreditChanges } from '../credit-transactions.js';
import { presentIds } from '../stripe-event-refs.js';

/**
 * Money paid back is credits taken back. `amount_refunded` is the charge's running total, so each
 * partial refund takes the purchase's share of it (rounded down, in the buyer's favour) less what
 * earlier refunds took.
 */
export async function chargeRefunded(
  repos: Repositories,
  credits: CreditChanges,
  charge: Stripe.Charge,
): Promise<void> {
  const purchase = await repos.credits.purchaseByPayment(presentIds(charge.id, charge.payment_intent));
  if (!purchase) return;
  const upTo = charge.refunded
    ? purchase.credits
    : Math.floor((purchase.credits * charge.amount_refunded) / charge.amount);
  await credits.takeBack({
    purchase,
    upTo,
    idempotencyKey: `stripe:refund:${charge.id}:${charge.amount_refunded}`,
    reason: 'payment refunded',
  });
}

/**
 * A chargeback pulls the money at once (`funds_withdrawn`) and takes months to decide, so the
 * credits go when the money goes; a dispute closed as `lost` takes them too (for an endpoint not
 * subscribed to funds_withdrawn; the shared key makes it once). They come back only when the
 * dispute closes as `won`: `funds_reinstated` also fires for the refunded part of a partially
 * refunded payment, which is no win. Inquiries (`warning_*`) move no money and change nothing.
 */
export async function disputeChanged(
  repos: Repositories,
  credits: CreditChanges,
  dispute: Stripe.Dispute,
  type: 'charge.dispute.funds_withdrawn' | 'charge.dispute.closed',
): Promise<void> {
  const purchase = await repos.credits.purchaseByPayment(presentIds(dispute.charge, dispute.payment_intent));
  if (!purchase) return;
  const revokeKey = `stripe:dispute:${dispute.id}:revoke`;
  if (type === 'charge.dispute.funds_withdrawn' || dispute.status === 'lost') {
    await credits.takeBack({ purchase, upTo: purchase.credits, idempotencyKey: revokeKey, reason: 'payment disputed' });
  } else if (dispute.status === 'won') {
    await credits.giveBack({
      purchase,
      revokeKey,
      idempotencyKey: `stripe:dispute:${dispute.id}:restore`,
      reason: 'dispute won',
    });
  }
}
