import { randomBytes } from 'node:crypto';
import { stripeFixture } from '@prodshot/testing';

// Stripe events as Stripe sends them, built from the recorded fixtures: the webhook service's medium
// tests apply them directly, the route's HTTP tests deliver them signed.

export function event(type: string, object: Record<string, unknown>, created?: number): Record<string, unknown> {
  return {
    ...stripeFixture('event'),
    id: `evt_${randomBytes(10).toString('hex')}`,
    type,
    data: { object },
    ...(created ? { created } : {}),
  };
}

export function subscriptionCheckout(
  userId: string,
  subscriptionId: string,
  invoiceId: string,
  session: { id?: string; paymentStatus?: string; type?: string; plan?: string } = {},
) {
  return event(session.type ?? 'checkout.session.completed', {
    ...stripeFixture('checkout.session'),
    id: session.id ?? `cs_test_${randomBytes(6).toString('hex')}`,
    mode: 'subscription',
    payment_status: session.paymentStatus ?? 'paid',
    payment_intent: null,
    status: 'complete',
    customer: `cus_${userId.slice(0, 8)}`,
    subscription: subscriptionId,
    invoice: invoiceId,
    client_reference_id: userId,
    metadata: { userId, kind: 'subscription', plan: session.plan ?? 'growth' },
  });
}

export function addOnCheckout(
  userId: string,
  pack = 'addon-100',
  session: { id?: string; paymentIntent?: string; paymentStatus?: string; type?: string } = {},
) {
  return event(session.type ?? 'checkout.session.completed', {
    ...stripeFixture('checkout.session'),
    id: session.id ?? `cs_test_${randomBytes(6).toString('hex')}`,
    mode: 'payment',
    payment_status: session.paymentStatus ?? 'paid',
    status: 'complete',
    payment_intent: session.paymentIntent ?? `pi_${randomBytes(6).toString('hex')}`,
    metadata: { userId, kind: 'addon', plan: pack },
  });
}

export function invoicePaid(
  subscriptionId: string,
  invoiceId: string,
  period: { start: number; end: number },
  metadata: Record<string, string> = {},
  billingReason = 'subscription_cycle',
) {
  const invoice = stripeFixture('invoice') as { lines: { data: Record<string, unknown>[] } } & Record<string, unknown>;
  const line = invoice.lines.data[0]!;
  return event('invoice.paid', {
    ...invoice,
    id: invoiceId,
    status: 'paid',
    billing_reason: billingReason,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: subscriptionId, metadata },
    },
    lines: {
      ...invoice.lines,
      data: [
        {
          ...line,
          period,
          parent: { type: 'subscription_item_details', subscription_item_details: { subscription: subscriptionId } },
        },
      ],
    },
  });
}

export function subscriptionEvent(
  type: string,
  subscriptionId: string,
  fields: Record<string, unknown>,
  created?: number,
) {
  return event(
    type,
    {
      ...stripeFixture('subscription'),
      id: subscriptionId,
      status: 'active',
      cancel_at: null,
      cancel_at_period_end: false,
      ...fields,
    },
    created,
  );
}

export function invoicePaymentPaid(invoiceId: string, paymentIntent: string) {
  return event('invoice_payment.paid', {
    ...stripeFixture('invoice_payment'),
    id: `inpay_${randomBytes(6).toString('hex')}`,
    invoice: invoiceId,
    status: 'paid',
    payment: { type: 'payment_intent', payment_intent: paymentIntent },
  });
}

/** charge.refunded as Stripe sends it: amount_refunded is the running total of the charge's refunds. */
export function chargeRefunded(paymentIntent: string, amount: number, amountRefunded: number) {
  return event('charge.refunded', {
    ...stripeFixture('charge'),
    id: `ch_${paymentIntent}`,
    payment_intent: paymentIntent,
    amount,
    amount_captured: amount,
    amount_refunded: amountRefunded,
    refunded: amountRefunded === amount,
  });
}

export function dispute(type: string, disputeId: string, paymentIntent: string, status: string) {
  return event(type, {
    ...stripeFixture('dispute'),
    id: disputeId,
    charge: `ch_${paymentIntent}`,
    payment_intent: paymentIntent,
    status,
  });
}
