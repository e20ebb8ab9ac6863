import type Stripe from 'stripe';
import { findAddOnPack, isPaidPlanId } from '@prodshot/contracts';
import { grantAddOnPack } from '../subscription-lifecycle.js';
import type { Repositories } from '@prodshot/db';
import type { CreditChanges } from '../credit-transactions.js';
import { idOf, invoiceGrantKey, knownUser, PENDING, presentIds } from '../stripe-event-refs.js';
import { openSubscription, type SecondSubscription } from './stripe-webhook-subscriptions.js';

export async function checkoutCompleted(
  repos: Repositories,
  credits: CreditChanges,
  session: Stripe.Checkout.Session,
): Promise<SecondSubscription | undefined> {
  const metadata = session.metadata ?? {};
  const userId = await knownUser(repos, metadata.userId ?? session.client_reference_id ?? undefined);
  if (!userId) return undefined;
  // Delayed payment methods complete the session unpaid; async_payment_succeeded follows when they pay.
  const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  // A subscription's session names no PaymentIntent: invoice_payment.paid links its payment later.
  const purchase = { paymentRefs: presentIds(session.payment_intent) };
  if (metadata.kind === 'addon') {
    const pack = findAddOnPack(metadata.plan);
    if (!pack || !paid) return undefined;
    await grantAddOnPack(credits, { userId, pack, grantKey: `stripe:checkout:${session.id}`, purchase });
    return undefined;
  }
  const subscriptionId = idOf(session.subscription);
  if (metadata.kind !== 'subscription' || !isPaidPlanId(metadata.plan) || !subscriptionId) return undefined;
  await repos.advisoryLocks.lockStripeSubscription(subscriptionId);
  const row = await repos.subscriptions.findByProviderSubscriptionId(subscriptionId);
  // Its invoice.paid got here first and already opened the subscription with its period.
  if (row && row.status !== PENDING) return undefined;
  const invoiceId = idOf(session.invoice);
  return openSubscription(repos, credits, {
    userId,
    plan: metadata.plan,
    subscriptionId,
    customerId: idOf(session.customer),
    paid,
    grantKey: invoiceId ? invoiceGrantKey(invoiceId) : `stripe:checkout:${session.id}`,
    invoiceId,
    purchase,
  });
}

/** The delayed payment failed: the subscription it would have paid for never starts, so the seller may check out again. */
export async function checkoutFailed(repos: Repositories, session: Stripe.Checkout.Session): Promise<void> {
  const subscriptionId = idOf(session.subscription);
  if (!subscriptionId) return;
  await repos.advisoryLocks.lockStripeSubscription(subscriptionId);
  const row = await repos.subscriptions.findByProviderSubscriptionId(subscriptionId);
  if (row?.status === PENDING) await repos.subscriptions.update(row.id, { status: 'incomplete_expired' });
}
