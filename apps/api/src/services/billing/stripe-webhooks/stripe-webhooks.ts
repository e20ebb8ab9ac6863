import type Stripe from 'stripe';
import type { Repositories } from '@prodshot/db';
import type { CreditChanges, CreditTransactions } from '../credit-transactions.js';
import { checkoutCompleted, checkoutFailed } from './stripe-webhook-checkout.js';
import { invoicePaid, invoicePaymentPaid } from './stripe-webhook-invoices.js';
import { chargeRefunded, disputeChanged } from './stripe-webhook-reversals.js';
import { subscriptionChanged, type SecondSubscription } from './stripe-webhook-subscriptions.js';
import type { SecondSubscriptionEnd } from '../stripe-payments.js';

/** A second subscription the event brought, now cancelled (and refunded if paid); firstSeen: no earlier event had reported it. */
export type EndedSecondSubscription = SecondSubscription & SecondSubscriptionEnd & { firstSeen: boolean };

export interface WebhookResult {
  /** The event was applied before (a replay, or a concurrent second delivery): nothing changed. */
  duplicate: boolean;
  endedSecond?: EndedSecondSubscription;
}

/** What the webhooks need of Stripe itself: a second subscription ended at once (the Stripe adapter). */
export interface SecondSubscriptionEnder {
  endSecondSubscription(subscriptionId: string, invoiceId: string | null): Promise<SecondSubscriptionEnd>;
}

/** Stripe's events, each applied to subscriptions and the ledger by the module of its family; only an app with the Stripe provider has them. */
export class StripeWebhooks {
  constructor(
    private readonly transactions: CreditTransactions,
    private readonly stripe: SecondSubscriptionEnder,
  ) {}

  /**
   * Applies one verified Stripe event. The event id is claimed in the same transaction as its
   * effects, so a replay or a concurrent second delivery changes nothing, and a failure rolls the
   * claim back so that Stripe's retry can apply it. A second subscription is ended at Stripe inside
   * that transaction for the same reason: if Stripe fails, the event is delivered again.
   */
  async apply(event: Stripe.Event): Promise<WebhookResult> {
    return this.transactions.run(async (repos, credits) => {
      if (!(await repos.processedWebhookEvents.claim('stripe', event.id, event.type))) return { duplicate: true };
      const second = await dispatch(repos, credits, event);
      return second ? { duplicate: false, endedSecond: await this.endSecond(repos, second) } : { duplicate: false };
    });
  }

  private async endSecond(repos: Repositories, second: SecondSubscription): Promise<EndedSecondSubscription> {
    const ended = await this.stripe.endSecondSubscription(second.subscriptionId, second.invoiceId);
    const firstSeen = await repos.subscriptions.recordCancelledSecond({
      userId: second.userId,
      providerSubscriptionId: second.subscriptionId,
      keptSubscriptionId: second.keptSubscriptionId,
      plan: second.plan,
      refunded: ended.refunded,
    });
    return { ...second, ...ended, firstSeen };
  }
}

async function dispatch(
  repos: Repositories,
  credits: CreditChanges,
  event: Stripe.Event,
): Promise<SecondSubscription | undefined> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return checkoutCompleted(repos, credits, event.data.object);
    case 'checkout.session.async_payment_failed':
      await checkoutFailed(repos, event.data.object);
      return undefined;
    case 'invoice.paid':
      return invoicePaid(repos, credits, event.data.object);
    case 'invoice_payment.paid':
      await invoicePaymentPaid(repos, event.data.object);
      return undefined;
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await subscriptionChanged(repos, credits, event.data.object, {
        created: event.created,
        deleted: event.type === 'customer.subscription.deleted',
      });
      return undefined;
    case 'charge.refunded':
      await chargeRefunded(repos, credits, event.data.object);
      return undefined;
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.closed':
      await disputeChanged(repos, credits, event.data.object, event.type);
      return undefined;
  }
  // Events of other types are acknowledged and change nothing.
  return undefined;
}
