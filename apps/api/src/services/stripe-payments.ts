import Stripe from 'stripe';
import type { PaymentsConfig } from '@prodshot/config';
import {
  addOnCancelPath,
  addOnReturnPath,
  subscriptionCancelPath,
  subscriptionReturnPath,
  type Plan,
} from '@prodshot/contracts';
import type { SubscriptionRow } from '@prodshot/db';
import type { AuthUser } from '../plugins/auth.js';
import { holdsLiveSubscription, isRunning } from './billing.js';
import type { BillingService, ProviderPeriod } from './billing-service.js';
import type { PaymentsProvider, PurchaseResult } from './payments-provider.js';
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
  return item ? { start: new Date(item.current_period_start * 1000), end: new Date(item.current_period_end * 1000) } : undefined;
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
  ) {
    this.stripe = createStripeClient(config);
    this.prices = new StripePrices(this.stripe);
  }

  private url(path: string): string {
    return `${this.publicUrl}${path}`;
  }

  private customer(user: AuthUser, current: SubscriptionRow | undefined): Pick<Stripe.Checkout.SessionCreateParams, 'customer' | 'customer_email'> {
    if (current?.provider_customer_id) return { customer: current.provider_customer_id };
    return user.email ? { customer_email: user.email } : {};
  }

  /**
   * One subscription per customer: a running one is updated to the new plan; one whose payment is
   * due or still pending (past_due, unpaid, incomplete, paused) is settled in the Billing Portal.
   * Only a seller without a live subscription goes to Checkout.
   */
  async subscribe({ user, plan, current, idempotencyKey }: Parameters<PaymentsProvider['subscribe']>[0]): Promise<PurchaseResult> {
    if (holdsLiveSubscription(current)) {
      const customer = current.provider_customer_id;
      if (isRunning(current)) {
        await this.changeRunningSubscription(current, plan, idempotencyKey);
        return { paymentLink: null };
      }
      return { paymentLink: customer ? await this.portalUrl(customer) : null };
    }
    const metadata: CheckoutMetadata = { userId: user.id, kind: 'subscription', plan: plan.id };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
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
    return { paymentLink: session.url };
  }

  /**
   * Resumes a cancelled-at-period-end subscription and puts it on the plan's price, billed from the
   * next invoice; the plan's allowance and quality follow with that period (pendingPlan until then).
   */
  private async changeRunningSubscription(current: SubscriptionRow & { provider_subscription_id: string }, plan: Plan, idempotencyKey: string | undefined): Promise<void> {
    const subscriptionId = current.provider_subscription_id;
    const [subscription, price] = await Promise.all([this.stripe.subscriptions.retrieve(subscriptionId), this.prices.id(planPrice(plan))]);
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

  async buyAddOn({ user, pack, current, idempotencyKey }: Parameters<PaymentsProvider['buyAddOn']>[0]): Promise<PurchaseResult> {
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
      ? periodOf(await this.stripe.subscriptions.update(current.provider_subscription_id, { cancel_at_period_end: true }))
      : undefined;
    await this.billing.cancelAtPeriodEnd(current, period);
  }
}
