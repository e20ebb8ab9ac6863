import Stripe from 'stripe';
import type { PaymentsConfig } from '@prodshot/config';
import {
  addOnCancelPath,
  addOnReturnPath,
  subscriptionCancelPath,
  subscriptionReturnPath,
  type Plan,
} from '@prodshot/contracts';
import { SubscriptionsRepository, type SubscriptionRow } from '@prodshot/db';
import type { AppDeps } from '../deps.js';
import type { AuthUser } from '../plugins/auth.js';
import { isRunning, scheduleChange } from './billing.js';
import type { PaymentsProvider, PurchaseResult } from './payments-provider.js';

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

/**
 * Stripe Checkout for purchases, the Billing Portal for self-service, and subscription updates
 * for cancellations and plan changes. Prices are sent inline from packages/contracts, so the plan
 * table has one home and no Stripe price ids need configuring.
 */
export class StripePaymentsProvider implements PaymentsProvider {
  readonly kind = 'stripe';
  readonly stripe: Stripe;

  constructor(
    private readonly deps: AppDeps,
    config: StripeConfig,
  ) {
    this.stripe = createStripeClient(config);
  }

  private url(path: string): string {
    return `${this.deps.config.http.publicUrl}${path}`;
  }

  private customer(user: AuthUser, current: SubscriptionRow | undefined): Pick<Stripe.Checkout.SessionCreateParams, 'customer' | 'customer_email'> {
    if (current?.provider_customer_id) return { customer: current.provider_customer_id };
    return user.email ? { customer_email: user.email } : {};
  }

  async subscribe({ user, plan, current, idempotencyKey }: Parameters<PaymentsProvider['subscribe']>[0]): Promise<PurchaseResult> {
    if (isRunning(current) && current.provider === 'stripe' && current.provider_subscription_id) {
      await this.changeRunningSubscription(current, plan);
      await scheduleChange(this.deps, current, plan.id);
      return { paymentLink: null };
    }
    const metadata: CheckoutMetadata = { userId: user.id, kind: 'subscription', plan: plan.id };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        client_reference_id: user.id,
        ...this.customer(user, current),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: plan.priceCents,
              recurring: { interval: plan.interval },
              product_data: { name: `Prodshot ${plan.label}` },
            },
          },
        ],
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

  /** Resumes a cancelled-at-period-end subscription and, for another plan, bills it from the next invoice. */
  private async changeRunningSubscription(current: SubscriptionRow, plan: Plan): Promise<void> {
    const subscriptionId = current.provider_subscription_id!;
    if (plan.id === current.plan) {
      await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false });
      return;
    }
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
    const product = await this.stripe.products.create({ name: `Prodshot ${plan.label}` });
    await this.stripe.subscriptions.update(subscriptionId, {
      cancel_at_period_end: false,
      // No proration: the FAQ promises plan changes from the next billing cycle.
      proration_behavior: 'none',
      items: [{ id: item.id, price_data: { currency: 'usd', product: product.id, unit_amount: plan.priceCents, recurring: { interval: plan.interval } } }],
      metadata: { userId: current.user_id, kind: 'subscription', plan: plan.id },
    });
  }

  async buyAddOn({ user, pack, current, idempotencyKey }: Parameters<PaymentsProvider['buyAddOn']>[0]): Promise<PurchaseResult> {
    const metadata: CheckoutMetadata = { userId: user.id, kind: 'addon', plan: pack.id };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: user.id,
        ...this.customer(user, current),
        line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: pack.priceCents, product_data: { name: `Prodshot ${pack.name}` } } }],
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
    if (!current?.provider_customer_id) return null;
    const session = await this.stripe.billingPortal.sessions.create({ customer: current.provider_customer_id, return_url: this.url('/profile') });
    return session.url;
  }

  async cancelAtPeriodEnd(current: SubscriptionRow): Promise<void> {
    if (current.provider_subscription_id) {
      await this.stripe.subscriptions.update(current.provider_subscription_id, { cancel_at_period_end: true });
    }
    await new SubscriptionsRepository(this.deps.db).update(current.id, { status: 'canceled', cancelAtPeriodEnd: true });
  }
}
