// Over 250 lines: the whole Stripe side of PaymentsProvider (checkout, add-ons, portal, cancel, a second
// subscription's end) beside the client it builds; each call is Stripe's own request shape.
import Stripe from 'stripe';
import type { PaymentsConfig } from '@prodshot/config';
import {
  addOnCancelPath,
  addOnReturnPath,
  checkoutOpenMessage,
  isPaidPlanId,
  subscriptionCancelPath,
  subscriptionPaymentPendingMessage,
  subscriptionReturnPath,
  type Plan,
} from '@prodshot/contracts';
import type { SubscriptionRow } from '@prodshot/db';
import type { AuthUser } from '../auth-user.js';
import { holdsLiveSubscription, isRunning } from './subscription-lifecycle.js';
import type { BillingService, ProviderPeriod } from './billing-service.js';
import type { CheckoutClaims } from './checkout-claims.js';
import { HttpError } from '../http-error.js';
import type { PaymentsProvider, PurchaseResult } from './payments-provider.js';
import { PENDING } from './stripe-event-refs.js';
import { addOnPrice, planPrice, StripePrices } from './stripe-prices.js';

type StripeConfig = Extract<PaymentsConfig, { mode: 'stripe' }>;

/** STRIPE_API_BASE points the SDK elsewhere (a local fake in tests, a proxy in some deployments). */
export function createStripeClient(config: StripeConfig): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

/**
 * How long a subscription Checkout stays open, and so how long it bars a second one: Stripe's
 * shortest (30 minutes from creation), with a margin for the clocks of this host and Stripe's.
 */
export const SUBSCRIPTION_CHECKOUT_MS = 32 * 60_000;

/** A second subscription of a seller, cancelled at Stripe; refunded tells whether a payment of it was given back. */
export interface SecondSubscriptionEnd {
  refunded: boolean;
}

function stripeErrorCode(error: unknown): string | undefined {
  return error instanceof Stripe.errors.StripeError ? error.code : undefined;
}

/** Metadata the webhooks read back to know whose purchase it was and what it bought. */
export interface CheckoutMetadata {
  userId: string;
  kind: 'subscription' | 'addon';
  plan: string;
  [key: string]: string;
}

/** The current period of a subscription as Stripe states it (on its item, since API version 2025-03-31). */
function periodOf(subscription: Stripe.Subscription): ProviderPeriod | undefined {
  const item = subscription.items.data[0];
  return item
    ? { start: new Date(item.current_period_start * 1000), end: new Date(item.current_period_end * 1000) }
    : undefined;
}

/**
 * Stripe Checkout for a first purchase, the Billing Portal for self-service, and updates of the
 * one existing subscription for plan changes and cancellations. Each plan and pack is one Stripe
 * product and price, found by lookup_key and created from packages/contracts when missing, so the
 * plan table has one home and no Stripe price ids need configuring.
 */
export class StripePaymentsProvider implements PaymentsProvider {
  readonly kind = 'stripe';
  readonly stripe: Stripe;
  private readonly prices: StripePrices;

  constructor(
    private readonly publicUrl: string,
    config: StripeConfig,
    private readonly billing: BillingService,
    private readonly claims: CheckoutClaims,
  ) {
    this.stripe = createStripeClient(config);
    this.prices = new StripePrices(this.stripe);
  }

  private url(path: string): string {
    return `${this.publicUrl}${path}`;
  }

  private customer(
    user: AuthUser,
    current: SubscriptionRow | undefined,
  ): Pick<Stripe.Checkout.SessionCreateParams, 'customer' | 'customer_email'> {
    if (current?.provider_customer_id) return { customer: current.provider_customer_id };
    return user.email ? { customer_email: user.email } : {};
  }

  /**
   * One subscription per customer: a running one is updated to the new plan; one whose payment is
   * due or still pending (past_due, unpaid, incomplete, paused) is settled in the Billing Portal.
   * One whose first payment is still on its way is refused (409), and so is a second Checkout while
   * one is open: only a seller without a live subscription or an open Checkout goes to Checkout.
   */
  async subscribe({
    user,
    plan,
    current,
    idempotencyKey,
  }: Parameters<PaymentsProvider['subscribe']>[0]): Promise<PurchaseResult> {
    if (holdsLiveSubscription(current)) {
      const { provider_customer_id: customer, status, plan: held } = current;
      if (isRunning(current)) {
        await this.changeRunningSubscription(current, plan, idempotencyKey);
        return { paymentLink: null };
      }
      if (status === PENDING && isPaidPlanId(held))
        throw new HttpError(409, subscriptionPaymentPendingMessage(held), 'subscription_pending');
      return { paymentLink: customer ? await this.portalUrl(customer) : null };
    }
    const attempt = await this.claims.claim(user.id, idempotencyKey, SUBSCRIPTION_CHECKOUT_MS);
    if (!attempt.claimed) {
      // The same request again (a retry after a lost answer): the checkout it opened, as Stripe's idempotency would.
      if (idempotencyKey && attempt.existing.idempotencyKey === idempotencyKey && attempt.existing.url)
        return { paymentLink: attempt.existing.url };
      throw new HttpError(409, checkoutOpenMessage(attempt.msLeft / 60_000), 'checkout_open');
    }
    try {
      const url = await this.openSubscriptionCheckout(user, plan, current, idempotencyKey);
      await this.claims.opened(user.id, { idempotencyKey: idempotencyKey ?? null, url });
      return { paymentLink: url };
    } catch (error) {
      await this.claims.release(user.id);
      throw error;
    }
  }

  private async openSubscriptionCheckout(
    user: AuthUser,
    plan: Plan,
    current: SubscriptionRow | undefined,
    idempotencyKey: string | undefined,
  ): Promise<string> {
    const metadata: CheckoutMetadata = { userId: user.id, kind: 'subscription', plan: plan.id };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        // The claim above lasts as long: the session cannot outlive the bar on a second one.
        expires_at: Math.floor((Date.now() + SUBSCRIPTION_CHECKOUT_MS) / 1000),
        client_reference_id: user.id,
        ...this.customer(user, current),
        line_items: [{ quantity: 1, price: await this.prices.id(planPrice(plan)) }],
        metadata,
        // The subscription (and so each of its invoices) carries who and what, for invoice.paid.
        subscription_data: { metadata },
        success_url: this.url(subscriptionReturnPath(plan.id)),
        cancel_url: this.url(subscriptionCancelPath(plan.id)),
      },
      idempotencyKey ? { idempotencyKey: `subscribe:${user.id}:${idempotencyKey}` } : undefined,
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return session.url;
  }

  /**
   * Resumes a cancelled-at-period-end subscription and puts it on the plan's price, billed from the
   * next invoice; the plan's allowance and quality follow with that period (pendingPlan until then).
   */
  private async changeRunningSubscription(
    current: SubscriptionRow & { provider_subscription_id: string },
    plan: Plan,
    idempotencyKey: string | undefined,
  ): Promise<void> {
    const subscriptionId = current.provider_subscription_id;
    const [subscription, price] = await Promise.all([
      this.stripe.subscriptions.retrieve(subscriptionId),
      this.prices.id(planPrice(plan)),
    ]);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
    const updated = await this.stripe.subscriptions.update(
      subscriptionId,
      {
        cancel_at_period_end: false,
        // No proration: the FAQ promises plan changes from the next billing cycle.
        proration_behavior: 'none',
        ...(item.price.id === price ? {} : { items: [{ id: item.id, price }] }),
        metadata: { userId: current.user_id, kind: 'subscription', plan: plan.id },
      },
      idempotencyKey ? { idempotencyKey: `change-plan:${current.user_id}:${idempotencyKey}` } : undefined,
    );
    await this.billing.scheduleChange(current, plan.id, periodOf(updated));
  }

  async buyAddOn({
    user,
    pack,
    current,
    idempotencyKey,
  }: Parameters<PaymentsProvider['buyAddOn']>[0]): Promise<PurchaseResult> {
    const metadata: CheckoutMetadata = { userId: user.id, kind: 'addon', plan: pack.id };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: user.id,
        ...this.customer(user, current),
        line_items: [{ quantity: 1, price: await this.prices.id(addOnPrice(pack)) }],
        metadata,
        success_url: this.url(addOnReturnPath(pack.id)),
        cancel_url: this.url(addOnCancelPath()),
      },
      idempotencyKey ? { idempotencyKey: `addon:${user.id}:${idempotencyKey}` } : undefined,
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { paymentLink: session.url };
  }

  async portalSession({ current }: Parameters<PaymentsProvider['portalSession']>[0]): Promise<string | null> {
    return current?.provider_customer_id ? this.portalUrl(current.provider_customer_id) : null;
  }

  private async portalUrl(customer: string): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create({ customer, return_url: this.url('/profile') });
    return session.url;
  }

  async cancelAtPeriodEnd(current: SubscriptionRow): Promise<void> {
    const period = current.provider_subscription_id
      ? periodOf(
          await this.stripe.subscriptions.update(current.provider_subscription_id, { cancel_at_period_end: true }),
        )
      : undefined;
    await this.billing.cancelAtPeriodEnd(current, period);
  }

  /**
   * Ends a seller's second subscription at once and refunds what it was paid (every paid payment of
   * `invoiceId`, its first invoice). Safe to repeat: an ended subscription is not cancelled again and
   * a payment already refunded is skipped, so a redelivered event changes nothing at Stripe.
   */
  async endSecondSubscription(subscriptionId: string, invoiceId: string | null): Promise<SecondSubscriptionEnd> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') {
      await this.stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-second:${subscriptionId}` });
    }
    if (!invoiceId) return { refunded: false };
    const payments = await this.stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid' });
    let refunded = false;
    for (const payment of payments.data) {
      const paymentIntent = payment.payment.payment_intent;
      if (!paymentIntent) continue;
      const id = typeof paymentIntent === 'string' ? paymentIntent : paymentIntent.id;
      try {
        await this.stripe.refunds.create(
          { payment_intent: id, reason: 'duplicate' },
          { idempotencyKey: `refund-second:${id}` },
        );
      } catch (error) {
        if (stripeErrorCode(error) !== 'charge_already_refunded') throw error;
      }
      refunded = true;
    }
    return { refunded };
  }
}
