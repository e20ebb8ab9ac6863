import type Stripe from 'stripe';
import { isPaidPlanId } from '@prodshot/contracts';
import { holdsLiveSubscription, startNewPeriod, type PeriodDates } from '../subscription-lifecycle.js';
import type { Repositories } from '@prodshot/db';
import type { CreditChanges } from '../credit-transactions.js';
import { EventTooEarlyError, idOf, invoiceGrantKey, knownUser, presentIds } from '../stripe-event-refs.js';
import { openSubscription, type SecondSubscription } from './stripe-webhook-subscriptions.js';

/** The service period the invoice paid for: its subscription line's period (the invoice's own period is the previous one). */
function paidPeriod(invoice: Stripe.Invoice): PeriodDates {
  const lines = invoice.lines.data;
  const line = lines.find((l) => l.parent?.subscription_item_details) ?? lines[0];
  if (!line) return { start: null, end: null };
  return { start: new Date(line.period.start * 1000), end: new Date(line.period.end * 1000) };
}

function paymentRefsOf(payment: Stripe.InvoicePayment): string[] {
  return presentIds(payment.payment.payment_intent, payment.payment.charge);
}

/** Only a new subscription's first invoice and a renewal pay for a period of the plan. */
const PERIOD_INVOICES: ReadonlySet<Stripe.Invoice.BillingReason | null> = new Set([
  'subscription_create',
  'subscription_cycle',
] as const);

export async function invoicePaid(
  repos: Repositories,
  credits: CreditChanges,
  invoice: Stripe.Invoice,
): Promise<SecondSubscription | undefined> {
  const details = invoice.parent?.subscription_details;
  // A proration, final or manual invoice never refills credits mid-period nor revives an ended subscription.
  if (!details || !PERIOD_INVOICES.has(invoice.billing_reason)) return undefined;
  const subscriptionId = idOf(details.subscription);
  await repos.advisoryLocks.lockStripeSubscription(subscriptionId);
  const period = paidPeriod(invoice);
  const grantKey = invoiceGrantKey(invoice.id);
  // The payments list comes only when expanded; invoice_payment.paid links them otherwise.
  const purchase = {
    paymentRefs: (invoice.payments?.data ?? []).filter((p) => p.status === 'paid').flatMap(paymentRefsOf),
  };
  const row = await repos.subscriptions.findByProviderSubscriptionId(subscriptionId);
  if (row) {
    await startNewPeriod(repos, credits, row, { ...period, grantKey, purchase });
    return undefined;
  }
  // invoice.paid can overtake checkout.session.completed: the subscription's metadata says whose
  // it is, and only its first invoice may open it.
  const metadata = details.metadata ?? {};
  const userId = await knownUser(repos, metadata.userId);
  if (!userId || !isPaidPlanId(metadata.plan)) return undefined;
  if (invoice.billing_reason !== 'subscription_create') {
    // A renewal that overtook the subscription's start waits for it; one of an old subscription
    // the seller has since replaced with a live one is nothing to us.
    const current = await repos.subscriptions.findByUserId(userId);
    if (holdsLiveSubscription(current)) return undefined;
    throw new EventTooEarlyError(
      `invoice ${invoice.id} renews subscription ${subscriptionId}, which has not started here yet`,
    );
  }
  return openSubscription(repos, credits, {
    userId,
    plan: metadata.plan,
    subscriptionId,
    customerId: idOf(invoice.customer),
    paid: true,
    grantKey,
    invoiceId: invoice.id,
    period,
    purchase,
  });
}

/** Remembers which payment paid an invoice, so that its refund or dispute finds the period it granted. */
export async function invoicePaymentPaid(repos: Repositories, payment: Stripe.InvoicePayment): Promise<void> {
  await repos.credits.linkPayments(invoiceGrantKey(idOf(payment.invoice)), paymentRefsOf(payment));
}
