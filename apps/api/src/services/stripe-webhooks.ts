import { sql } from 'kysely';
import type Stripe from 'stripe';
import { findAddOnPack, isPaidPlanId, type PaidPlanId } from '@prodshot/contracts';
import { CreditsRepository, isUuid, SubscriptionsRepository, UsersRepository, WebhookEventsRepository, type SubscriptionRow } from '@prodshot/db';
import type { AppDeps } from '../deps.js';
import { activatePlan, endSubscription, grantAddOnPack, hasEnded, holdsLiveSubscription, startNewPeriod } from './billing.js';
import { runCreditTransaction, type BillingTx, type CreditChanges } from './credit-transactions.js';
import { planOfPrice } from './stripe-prices.js';

export type WebhookOutcome = 'processed' | 'duplicate';

/** An event that cannot apply yet: answered with an error so that Stripe delivers it again later. */
export class EventTooEarlyError extends Error {
  override readonly name = 'EventTooEarlyError';
}

/**
 * Applies one verified Stripe event. The event id is claimed in the same transaction as its
 * effects, so a replay or a concurrent second delivery changes nothing, and a failure rolls the
 * claim back so that Stripe's retry can apply it.
 */
export async function applyStripeEvent(deps: AppDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  return runCreditTransaction(deps, async (tx, credits) => {
    if (!(await new WebhookEventsRepository(tx).claim('stripe', event.id, event.type))) return 'duplicate';
    await apply(tx, credits, event);
    return 'processed';
  });
}

async function apply(tx: BillingTx, credits: CreditChanges, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return checkoutCompleted(tx, credits, event.data.object);
    case 'checkout.session.async_payment_failed':
      return checkoutFailed(tx, event.data.object);
    case 'invoice.paid':
      return invoicePaid(tx, credits, event.data.object);
    case 'invoice_payment.paid':
      return invoicePaymentPaid(tx, event.data.object);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(tx, credits, event.data.object, { created: event.created, deleted: event.type === 'customer.subscription.deleted' });
    case 'charge.refunded':
      return chargeRefunded(tx, credits, event.data.object);
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.closed':
      return disputeChanged(tx, credits, event.data.object, event.type);
  }
}

/**
 * Events about one subscription are applied one at a time (until this transaction ends): two
 * invoices landing together must not both find no subscription and race to create it.
 */
async function lockSubscription(tx: BillingTx, subscriptionId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`stripe-subscription:${subscriptionId}`}))`.execute(tx);
}

function idOf(value: string | { id: string }): string;
function idOf(value: string | { id: string } | null | undefined): string | null;
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function presentIds(...values: Array<string | { id: string } | null | undefined>): string[] {
  return values.map(idOf).filter((id): id is string => id !== null);
}

/** Stripe's status for a subscription whose first payment has not arrived: ours while a delayed payment is on its way. */
const PENDING = 'incomplete';

/** Every grant for a subscription's invoice uses this key, whichever event brings it first. */
function invoiceGrantKey(invoiceId: string): string {
  return `stripe:invoice:${invoiceId}`;
}

async function knownUser(tx: BillingTx, userId: string | undefined): Promise<string | null> {
  if (!userId || !isUuid(userId)) return null;
  return (await new UsersRepository(tx).findById(userId)) ? userId : null;
}

async function checkoutCompleted(tx: BillingTx, credits: CreditChanges, session: Stripe.Checkout.Session): Promise<void> {
  const metadata = session.metadata ?? {};
  const userId = await knownUser(tx, metadata.userId ?? session.client_reference_id ?? undefined);
  if (!userId) return;
  // Delayed payment methods complete the session unpaid; async_payment_succeeded follows when they pay.
  const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  // A subscription's session names no PaymentIntent: invoice_payment.paid links its payment later.
  const purchase = { paymentRefs: presentIds(session.payment_intent) };
  if (metadata.kind === 'addon') {
    const pack = findAddOnPack(metadata.plan ?? '');
    if (!pack || !paid) return;
    await grantAddOnPack(credits, { userId, pack, grantKey: `stripe:checkout:${session.id}`, purchase });
    return;
  }
  const subscriptionId = idOf(session.subscription);
  if (metadata.kind !== 'subscription' || !isPaidPlanId(metadata.plan) || !subscriptionId) return;
  await lockSubscription(tx, subscriptionId);
  const row = await new SubscriptionsRepository(tx).findByProviderSubscriptionId(subscriptionId);
  // Its invoice.paid got here first and already opened the subscription with its period.
  if (row && row.status !== PENDING) return;
  const invoiceId = idOf(session.invoice);
  await openSubscription(tx, credits, {
    userId,
    plan: metadata.plan,
    subscriptionId,
    customerId: idOf(session.customer),
    paid,
    grantKey: invoiceId ? invoiceGrantKey(invoiceId) : `stripe:checkout:${session.id}`,
    purchase,
  });
}

/** The delayed payment failed: the subscription it would have paid for never starts, so the seller may check out again. */
async function checkoutFailed(tx: BillingTx, session: Stripe.Checkout.Session): Promise<void> {
  const subscriptionId = idOf(session.subscription);
  if (!subscriptionId) return;
  await lockSubscription(tx, subscriptionId);
  const subscriptions = new SubscriptionsRepository(tx);
  const row = await subscriptions.findByProviderSubscriptionId(subscriptionId);
  if (row?.status === PENDING) await subscriptions.update(row.id, { status: 'incomplete_expired' });
}

interface Opening {
  userId: string;
  plan: PaidPlanId;
  subscriptionId: string;
  customerId: string | null;
  /** false while a delayed payment is on its way: the row holds the subscription (so no second Checkout starts) but grants nothing yet. */
  paid: boolean;
  grantKey: string;
  period?: { start: Date | null; end: Date | null };
  /** The payments known to have paid this grant; invoice_payment.paid may name them later. */
  purchase: { paymentRefs: string[] };
}

/**
 * A new Stripe subscription becomes the user's. One subscription per customer: when two
 * checkouts raced, the second never replaces a first one that is still live.
 */
async function openSubscription(tx: BillingTx, credits: CreditChanges, opening: Opening): Promise<void> {
  const subscriptions = new SubscriptionsRepository(tx);
  const current = await subscriptions.findByUserId(opening.userId);
  if (holdsLiveSubscription(current) && current.provider_subscription_id !== opening.subscriptionId) return;
  const ids = { provider: 'stripe' as const, providerCustomerId: opening.customerId, providerSubscriptionId: opening.subscriptionId };
  if (!opening.paid) {
    await subscriptions.activate(opening.userId, { plan: opening.plan, status: PENDING, ...ids });
    return;
  }
  await activatePlan(tx, credits, {
    userId: opening.userId,
    plan: opening.plan,
    ...ids,
    periodStart: opening.period?.start ?? null,
    periodEnd: opening.period?.end ?? null,
    grantKey: opening.grantKey,
    purchase: opening.purchase,
  });
}

/** The service period the invoice paid for: its subscription line's period (the invoice's own period is the previous one). */
function paidPeriod(invoice: Stripe.Invoice): { start: Date | null; end: Date | null } {
  const lines = invoice.lines.data;
  const line = lines.find((l) => l.parent?.subscription_item_details) ?? lines[0];
  if (!line) return { start: null, end: null };
  return { start: new Date(line.period.start * 1000), end: new Date(line.period.end * 1000) };
}

function paymentRefsOf(payment: Stripe.InvoicePayment): string[] {
  return presentIds(payment.payment.payment_intent, payment.payment.charge);
}

/** Only a new subscription's first invoice and a renewal pay for a period of the plan. */
const PERIOD_INVOICES: ReadonlySet<Stripe.Invoice.BillingReason | null> = new Set(['subscription_create', 'subscription_cycle'] as const);

async function invoicePaid(tx: BillingTx, credits: CreditChanges, invoice: Stripe.Invoice): Promise<void> {
  const details = invoice.parent?.subscription_details;
  // A proration, final or manual invoice never refills credits mid-period nor revives an ended subscription.
  if (!details || !PERIOD_INVOICES.has(invoice.billing_reason)) return;
  const subscriptionId = idOf(details.subscription);
  await lockSubscription(tx, subscriptionId);
  const period = paidPeriod(invoice);
  const grantKey = invoiceGrantKey(invoice.id);
  // The payments list comes only when expanded; invoice_payment.paid links them otherwise.
  const purchase = { paymentRefs: (invoice.payments?.data ?? []).filter((p) => p.status === 'paid').flatMap(paymentRefsOf) };
  const row = await new SubscriptionsRepository(tx).findByProviderSubscriptionId(subscriptionId);
  if (row) {
    await startNewPeriod(tx, credits, row, { ...period, grantKey, purchase });
    return;
  }
  // invoice.paid can overtake checkout.session.completed: the subscription's metadata says whose
  // it is, and only its first invoice may open it.
  const metadata = details.metadata ?? {};
  const userId = await knownUser(tx, metadata.userId);
  if (!userId || !isPaidPlanId(metadata.plan)) return;
  if (invoice.billing_reason !== 'subscription_create') {
    // A renewal that overtook the subscription's start waits for it; one of an old subscription
    // the seller has since replaced with a live one is nothing to us.
    const current = await new SubscriptionsRepository(tx).findByUserId(userId);
    if (holdsLiveSubscription(current)) return;
    throw new EventTooEarlyError(`invoice ${invoice.id} renews subscription ${subscriptionId}, which has not started here yet`);
  }
  await openSubscription(tx, credits, {
    userId,
    plan: metadata.plan,
    subscriptionId,
    customerId: idOf(invoice.customer),
    paid: true,
    grantKey,
    period,
    purchase,
  });
}

/** Remembers which payment paid an invoice, so that its refund or dispute finds the period it granted. */
async function invoicePaymentPaid(tx: BillingTx, payment: Stripe.InvoicePayment): Promise<void> {
  await new CreditsRepository(tx).linkPayments(invoiceGrantKey(idOf(payment.invoice)), paymentRefsOf(payment));
}

/** Stripe keeps a subscription 'active' until the period ends after a cancellation; to the user it reads canceled at once. */
function statusOf(subscription: Stripe.Subscription): string {
  if (subscription.status === 'active' && (subscription.cancel_at_period_end || subscription.cancel_at)) return 'canceled';
  return subscription.status;
}

/** The item's current period, unless it would move the row's period back (a renewal's invoice came first). */
function periodPatch(row: SubscriptionRow, item: Stripe.SubscriptionItem | undefined): { currentPeriodStart?: Date; currentPeriodEnd?: Date } {
  if (!item) return {};
  const start = new Date(item.current_period_start * 1000);
  if (row.current_period_start && start < row.current_period_start) return {};
  return { currentPeriodStart: start, currentPeriodEnd: new Date(item.current_period_end * 1000) };
}

/**
 * Stripe does not deliver events in order, so each subscription remembers the `created` of the
 * last event applied to it, and an older one changes nothing. A deleted subscription is over:
 * its paid period has ended, so its credits go (add-on credits stay) and nothing revives it.
 */
async function subscriptionChanged(
  tx: BillingTx,
  credits: CreditChanges,
  subscription: Stripe.Subscription,
  event: { created: number; deleted: boolean },
): Promise<void> {
  await lockSubscription(tx, subscription.id);
  const subscriptions = new SubscriptionsRepository(tx);
  const row = await subscriptions.findByProviderSubscriptionId(subscription.id);
  if (!row || hasEnded(row)) return;
  const at = new Date(event.created * 1000);
  if (row.provider_event_at && at < row.provider_event_at) return;
  if (event.deleted || subscription.status === 'canceled') {
    // Its event time is not kept: an ended subscription takes no later event at all.
    await endSubscription(tx, credits, row, `stripe:subscription-ended:${subscription.id}`);
    return;
  }
  const item = subscription.items.data[0];
  // A plan changed here or in the Billing Portal takes effect with the next period (FAQ).
  const plan = planOfPrice(item?.price);
  await subscriptions.update(row.id, {
    status: statusOf(subscription),
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end || subscription.cancel_at),
    providerEventAt: at,
    ...(plan ? { pendingPlan: plan === row.plan ? null : plan } : {}),
    ...periodPatch(row, item),
  });
}

/**
 * Money paid back is credits taken back. `amount_refunded` is the charge's running total, so each
 * partial refund takes the purchase's share of it (rounded down, in the buyer's favour) less what
 * earlier refunds took.
 */
async function chargeRefunded(tx: BillingTx, credits: CreditChanges, charge: Stripe.Charge): Promise<void> {
  const purchase = await new CreditsRepository(tx).purchaseByPayment(presentIds(charge.id, charge.payment_intent));
  if (!purchase) return;
  const upTo = charge.refunded ? purchase.credits : Math.floor((purchase.credits * charge.amount_refunded) / charge.amount);
  await credits.takeBack({ purchase, upTo, idempotencyKey: `stripe:refund:${charge.id}:${charge.amount_refunded}`, reason: 'payment refunded' });
}

/**
 * A chargeback pulls the money at once (`funds_withdrawn`) and takes months to decide, so the
 * credits go when the money goes; a dispute closed as `lost` takes them too (for an endpoint not
 * subscribed to funds_withdrawn; the shared key makes it once). They come back only when the
 * dispute closes as `won`: `funds_reinstated` also fires for the refunded part of a partially
 * refunded payment, which is no win. Inquiries (`warning_*`) move no money and change nothing.
 */
async function disputeChanged(
  tx: BillingTx,
  credits: CreditChanges,
  dispute: Stripe.Dispute,
  type: 'charge.dispute.funds_withdrawn' | 'charge.dispute.closed',
): Promise<void> {
  const purchase = await new CreditsRepository(tx).purchaseByPayment(presentIds(dispute.charge, dispute.payment_intent));
  if (!purchase) return;
  const revokeKey = `stripe:dispute:${dispute.id}:revoke`;
  if (type === 'charge.dispute.funds_withdrawn' || dispute.status === 'lost') {
    await credits.takeBack({ purchase, upTo: purchase.credits, idempotencyKey: revokeKey, reason: 'payment disputed' });
  } else if (dispute.status === 'won') {
    await credits.giveBack({ purchase, revokeKey, idempotencyKey: `stripe:dispute:${dispute.id}:restore`, reason: 'dispute won' });
  }
}
