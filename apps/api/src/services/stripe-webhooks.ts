import { sql } from 'kysely';
import type Stripe from 'stripe';
import { findAddOnPack, isPaidPlanId } from '@prodshot/contracts';
import { isUuid, SubscriptionsRepository, UsersRepository, WebhookEventsRepository, type SubscriptionRow } from '@prodshot/db';
import type { AppDeps } from '../deps.js';
import { activatePlan, grantAddOnPack, startNewPeriod } from './billing.js';
import { runCreditTransaction, type BillingTx, type CreditChanges } from './credits-events.js';

export type WebhookOutcome = 'processed' | 'duplicate';

/**
 * Applies one verified Stripe event. The event id is claimed in the same transaction as its
 * effects, so a replay or a concurrent second delivery changes nothing, and a failure rolls the
 * claim back so that Stripe's retry can apply it.
 */
export async function applyStripeEvent(deps: AppDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  return runCreditTransaction(deps, async (tx, credits) => {
    if (!(await new WebhookEventsRepository(tx).claim('stripe', event.id, event.type))) return 'duplicate';
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        await checkoutCompleted(tx, credits, event.data.object);
        break;
      case 'invoice.paid':
        await invoicePaid(tx, credits, event.data.object);
        break;
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await subscriptionChanged(tx, event.data.object, event.type === 'customer.subscription.deleted');
        break;
      default:
        break;
    }
    return 'processed';
  });
}

/**
 * Events about one subscription are applied one at a time (until this transaction ends): two
 * invoices landing together must not both find no subscription and race to create it.
 */
async function lockSubscription(tx: BillingTx, subscriptionId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`stripe-subscription:${subscriptionId}`}))`.execute(tx);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

async function knownUser(tx: BillingTx, userId: string | undefined): Promise<string | null> {
  if (!userId || !isUuid(userId)) return null;
  return (await new UsersRepository(tx).findById(userId)) ? userId : null;
}

async function checkoutCompleted(tx: BillingTx, credits: CreditChanges, session: Stripe.Checkout.Session): Promise<void> {
  // Delayed payment methods complete the session unpaid; async_payment_succeeded follows when they pay.
  if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return;
  const metadata = session.metadata ?? {};
  const userId = await knownUser(tx, metadata.userId ?? session.client_reference_id ?? undefined);
  if (!userId) return;
  if (metadata.kind === 'addon') {
    const pack = findAddOnPack(metadata.plan ?? '');
    if (pack) await grantAddOnPack(credits, { userId, pack, grantKey: `stripe:checkout:${session.id}` });
    return;
  }
  if (metadata.kind === 'subscription' && isPaidPlanId(metadata.plan)) {
    // Its invoice.paid got here first and already opened the subscription with its period.
    const subscriptionId = idOf(session.subscription);
    if (subscriptionId) await lockSubscription(tx, subscriptionId);
    if (subscriptionId && (await new SubscriptionsRepository(tx).findByProviderSubscriptionId(subscriptionId))) return;
    const invoiceId = idOf(session.invoice);
    await activatePlan(tx, credits, {
      userId,
      plan: metadata.plan,
      provider: 'stripe',
      providerCustomerId: idOf(session.customer),
      providerSubscriptionId: idOf(session.subscription),
      // The first invoice's invoice.paid grants the same period: one key, whichever arrives first.
      grantKey: invoiceId ? `stripe:invoice:${invoiceId}` : `stripe:checkout:${session.id}`,
    });
  }
}

function subscriptionIdOfInvoice(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

/** The service period the invoice paid for: its subscription line's period (the invoice's own period is the previous one). */
function paidPeriod(invoice: Stripe.Invoice): { start: Date | null; end: Date | null } {
  const lines = invoice.lines?.data ?? [];
  const line = lines.find((l) => l.parent?.subscription_item_details) ?? lines[0];
  if (!line) return { start: null, end: null };
  return { start: new Date(line.period.start * 1000), end: new Date(line.period.end * 1000) };
}

async function invoicePaid(tx: BillingTx, credits: CreditChanges, invoice: Stripe.Invoice): Promise<void> {
  const subscriptionId = subscriptionIdOfInvoice(invoice);
  if (!subscriptionId) return;
  await lockSubscription(tx, subscriptionId);
  const period = paidPeriod(invoice);
  const grantKey = `stripe:invoice:${invoice.id}`;
  const subscriptions = new SubscriptionsRepository(tx);
  const row = await subscriptions.findByProviderSubscriptionId(subscriptionId);
  if (row) {
    await startNewPeriod(tx, credits, row, { ...period, grantKey });
    return;
  }
  // invoice.paid can overtake checkout.session.completed: the subscription's metadata says whose it is.
  const metadata = invoice.parent?.subscription_details?.metadata ?? {};
  const userId = await knownUser(tx, metadata.userId);
  if (!userId || !isPaidPlanId(metadata.plan)) return;
  await activatePlan(tx, credits, {
    userId,
    plan: metadata.plan,
    provider: 'stripe',
    providerCustomerId: idOf(invoice.customer),
    providerSubscriptionId: subscriptionId,
    periodStart: period.start,
    periodEnd: period.end,
    grantKey,
  });
}

/** Stripe keeps a subscription 'active' until the period ends after a cancellation; to the user it reads canceled at once. */
function statusOf(subscription: Stripe.Subscription, deleted: boolean): string {
  if (deleted) return 'canceled';
  if (subscription.status === 'active' && (subscription.cancel_at_period_end || subscription.cancel_at)) return 'canceled';
  return subscription.status;
}

async function subscriptionChanged(tx: BillingTx, subscription: Stripe.Subscription, deleted: boolean): Promise<SubscriptionRow | undefined> {
  await lockSubscription(tx, subscription.id);
  const subscriptions = new SubscriptionsRepository(tx);
  const row = await subscriptions.findByProviderSubscriptionId(subscription.id);
  if (!row) return undefined;
  const item = subscription.items?.data?.[0];
  return subscriptions.update(row.id, {
    status: statusOf(subscription, deleted),
    cancelAtPeriodEnd: deleted ? false : Boolean(subscription.cancel_at_period_end || subscription.cancel_at),
    ...(item ? { currentPeriodStart: new Date(item.current_period_start * 1000), currentPeriodEnd: new Date(item.current_period_end * 1000) } : {}),
  });
}
