import type Stripe from 'stripe';
import type { PaidPlanId } from '@prodshot/contracts';
import type { Repositories, SubscriptionRow } from '@prodshot/db';
import {
  activatePlan,
  endSubscription,
  hasEnded,
  holdsLiveSubscription,
  type GrantPurchase,
  type PeriodDates,
} from '../subscription-lifecycle.js';
import type { CreditChanges } from '../credit-transactions.js';
import { PENDING } from '../stripe-event-refs.js';
import { planOfPrice } from '../stripe-prices.js';

export interface Opening {
  userId: string;
  plan: PaidPlanId;
  subscriptionId: string;
  customerId: string | null;
  /** false while a delayed payment is on its way: the row holds the subscription (so no second Checkout starts) but grants nothing yet. */
  paid: boolean;
  grantKey: string;
  /** The subscription's first invoice, if the event names it: what a second subscription's refund gives back. */
  invoiceId: string | null;
  period?: PeriodDates;
  /** The payments known to have paid this grant; invoice_payment.paid may name them later. */
  purchase: GrantPurchase;
}

/** A subscription that reached a seller who holds another live one (two checkouts raced): it is to be ended and refunded. */
export interface SecondSubscription {
  userId: string;
  subscriptionId: string;
  keptSubscriptionId: string;
  plan: PaidPlanId;
  invoiceId: string | null;
}

/**
 * A new Stripe subscription becomes the user's. One subscription per customer: when two
 * checkouts raced, the second never replaces a first one that is still live, and is answered
 * for the caller to end it.
 */
export async function openSubscription(
  repos: Repositories,
  credits: CreditChanges,
  opening: Opening,
): Promise<SecondSubscription | undefined> {
  const current = await repos.subscriptions.findByUserId(opening.userId);
  if (holdsLiveSubscription(current) && current.provider_subscription_id !== opening.subscriptionId) {
    const { userId, subscriptionId, plan, invoiceId } = opening;
    return { userId, subscriptionId, keptSubscriptionId: current.provider_subscription_id, plan, invoiceId };
  }
  const ids = {
    provider: 'stripe' as const,
    providerCustomerId: opening.customerId,
    providerSubscriptionId: opening.subscriptionId,
  };
  if (!opening.paid) {
    await repos.subscriptions.activate(opening.userId, { plan: opening.plan, status: PENDING, ...ids });
    return undefined;
  }
  await activatePlan(repos, credits, {
    userId: opening.userId,
    plan: opening.plan,
    ...ids,
    periodStart: opening.period?.start ?? null,
    periodEnd: opening.period?.end ?? null,
    grantKey: opening.grantKey,
    purchase: opening.purchase,
  });
  return undefined;
}

/** Stripe keeps a subscription 'active' until the period ends after a cancellation; to the user it reads canceled at once. */
function statusOf(subscription: Stripe.Subscription): string {
  if (subscription.status === 'active' && (subscription.cancel_at_period_end || subscription.cancel_at))
    return 'canceled';
  return subscription.status;
}

/** The item's current period, unless it would move the row's period back (a renewal's invoice came first). */
function periodPatch(
  row: SubscriptionRow,
  item: Stripe.SubscriptionItem | undefined,
): { currentPeriodStart?: Date; currentPeriodEnd?: Date } {
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
export async function subscriptionChanged(
  repos: Repositories,
  credits: CreditChanges,
  subscription: Stripe.Subscription,
  event: { created: number; deleted: boolean },
): Promise<void> {
  await repos.advisoryLocks.lockStripeSubscription(subscription.id);
  const row = await repos.subscriptions.findByProviderSubscriptionId(subscription.id);
  if (!row || hasEnded(row)) return;
  const at = new Date(event.created * 1000);
  if (row.provider_event_at && at < row.provider_event_at) return;
  if (event.deleted || subscription.status === 'canceled') {
    // Its event time is not kept: an ended subscription takes no later event at all.
    await endSubscription(repos, credits, row, `stripe:subscription-ended:${subscription.id}`);
    return;
  }
  const item = subscription.items.data[0];
  // A plan changed here or in the Billing Portal takes effect with the next period (FAQ).
  const plan = planOfPrice(item?.price);
  await repos.subscriptions.update(row.id, {
    status: statusOf(subscription),
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end || subscription.cancel_at),
    providerEventAt: at,
    ...(plan ? { pendingPlan: plan === row.plan ? null : plan } : {}),
    ...periodPatch(row, item),
  });
}
