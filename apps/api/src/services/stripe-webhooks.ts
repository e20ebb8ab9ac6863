import type Stripe from 'stripe';
import type { Repositories } from '@prodshot/db';
import type { CreditChanges, CreditTransactions } from './credit-transactions.js';
import { checkoutCompleted, checkoutFailed } from './stripe-webhook-checkout.js';
import { invoicePaid, invoicePaymentPaid } from './stripe-webhook-invoices.js';
import { chargeRefunded, disputeChanged } from './stripe-webhook-reversals.js';
import { subscriptionChanged } from './stripe-webhook-subscriptions.js';

export type WebhookOutcome = 'processed' | 'duplicate';

/** Stripe's events, each applied to subscriptions and the ledger by the module of its family. */
export class StripeWebhooks {
  constructor(private readonly transactions: CreditTransactions) {}

  /**
   * Applies one verified Stripe event. The event id is claimed in the same transaction as its
   * effects, so a replay or a concurrent second delivery changes nothing, and a failure rolls the
   * claim back so that Stripe's retry can apply it.
   */
  async apply(event: Stripe.Event): Promise<WebhookOutcome> {
    return this.transactions.run(async (repos, credits) => {
      if (!(await repos.webhookEvents.claim('stripe', event.id, event.type))) return 'duplicate';
      await dispatch(repos, credits, event);
      return 'processed';
    });
  }
}

async function dispatch(repos: Repositories, credits: CreditChanges, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return checkoutCompleted(repos, credits, event.data.object);
    case 'checkout.session.async_payment_failed':
      return checkoutFailed(repos, event.data.object);
    case 'invoice.paid':
      return invoicePaid(repos, credits, event.data.object);
    case 'invoice_payment.paid':
      return invoicePaymentPaid(repos, event.data.object);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(repos, credits, event.data.object, { created: event.created, deleted: event.type === 'customer.subscription.deleted' });
    case 'charge.refunded':
      return chargeRefunded(repos, credits, event.data.object);
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.closed':
      return disputeChanged(repos, credits, event.data.object, event.type);
  }
}
