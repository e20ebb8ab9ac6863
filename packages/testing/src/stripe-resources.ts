// Over 250 lines: the Stripe fake's state: the resources the app calls, in Stripe's documented shapes, sharing
// one store of customers and subscriptions.
import { stripeFixture, type StripeObject } from './stripe-fixtures.js';
import { listOf, ok, strings, stripeError, type Reply } from './stripe-wire.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const MONTH_SECONDS = 30 * 24 * 3600;

/** What the fake keeps between requests, and the answer to each. */
export interface StripeResources {
  respond(method: string, url: string, body: StripeObject): Reply;
  /** The fake's copy of a subscription, without making one up. */
  subscription(id: string): StripeObject | undefined;
  price(lookupKey: string): StripeObject | undefined;
  /** Records that a PaymentIntent paid an invoice, as Checkout would have: GET /v1/invoice_payments lists it, and it can be refunded. */
  payInvoice(invoiceId: string, paymentIntentId: string, amount: number): void;
  /** The refunds made of a PaymentIntent. */
  refundsOf(paymentIntentId: string): StripeObject[];
  /** How many ids were made so far: answers are numbered by it in their request-id header. */
  idsMade(): number;
}

/**
 * Products, prices (looked up by lookup_key), subscriptions (retrieved, updated, cancelled), the
 * payments of invoices and their refunds, Checkout and Billing Portal sessions.
 * A subscription it was never told of is made up on first use (an active one on a fixture price
 * for the month from now): webhooks in tests speak of subscriptions that Checkout would have created.
 */
export function stripeResources(): StripeResources {
  const products = new Map<string, StripeObject>();
  const prices = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const invoicePayments: StripeObject[] = [];
  const refunds: StripeObject[] = [];
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_fake${(++counter).toString().padStart(6, '0')}`;

  const priceByLookupKey = (key: string) =>
    [...prices.values()].find((price) => price.active && price.lookup_key === key);

  function createProduct(body: StripeObject): Reply {
    const id = typeof body.id === 'string' ? body.id : nextId('prod');
    if (products.has(id)) return stripeError(400, `Product already exists.`, 'resource_already_exists', 'id');
    const product = {
      ...stripeFixture('product'),
      id,
      name: body.name,
      metadata: body.metadata ?? {},
      default_price: null,
      created: nowSeconds(),
    };
    products.set(id, product);
    return ok(product);
  }

  function createPrice(body: StripeObject): Reply {
    const productId = String(body.product ?? '');
    if (!products.has(productId))
      return stripeError(400, `No such product: '${productId}'`, 'resource_missing', 'product');
    const lookupKey = typeof body.lookup_key === 'string' ? body.lookup_key : null;
    const holder = lookupKey ? priceByLookupKey(lookupKey) : undefined;
    if (holder && body.transfer_lookup_key !== 'true') {
      return stripeError(
        400,
        `A price (\`${String(holder.id)}\`) already uses that lookup key.`,
        undefined,
        'lookup_key',
      );
    }
    if (holder) holder.lookup_key = null;
    const recurring = body.recurring as StripeObject | undefined;
    const price = {
      ...stripeFixture('price'),
      id: nextId('price'),
      product: productId,
      currency: body.currency,
      unit_amount: Number(body.unit_amount),
      unit_amount_decimal: String(body.unit_amount),
      lookup_key: lookupKey,
      metadata: body.metadata ?? {},
      type: recurring ? 'recurring' : 'one_time',
      recurring: recurring
        ? {
            interval: recurring.interval,
            interval_count: 1,
            meter: null,
            usage_type: 'licensed',
            trial_period_days: null,
          }
        : null,
      transform_quantity: null,
      created: nowSeconds(),
    };
    prices.set(price.id, price);
    return ok(price);
  }

  function listPrices(query: StripeObject): Reply {
    const keys = strings(query.lookup_keys);
    const active = query.active === undefined ? undefined : query.active === 'true';
    const limit = query.limit === undefined ? 10 : Number(query.limit);
    const found = [...prices.values()].filter(
      (price) =>
        (keys.length === 0 || keys.includes(String(price.lookup_key))) &&
        (active === undefined || price.active === active),
    );
    return ok({ object: 'list', data: found.slice(0, limit), has_more: found.length > limit, url: '/v1/prices' });
  }

  function madeUpSubscription(id: string): StripeObject {
    const fixture = stripeFixture('subscription') as StripeObject & { items: { data: StripeObject[] } };
    const start = nowSeconds();
    const item = {
      ...fixture.items.data[0]!,
      id: nextId('si'),
      subscription: id,
      current_period_start: start,
      current_period_end: start + MONTH_SECONDS,
    };
    return {
      ...fixture,
      id,
      status: 'active',
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      cancel_at_period_end: false,
      pending_update: null,
      items: { ...fixture.items, data: [item], url: `/v1/subscription_items?subscription=${id}` },
    };
  }

  function subscriptionOf(id: string): StripeObject {
    let subscription = subscriptions.get(id);
    if (!subscription) {
      subscription = madeUpSubscription(id);
      subscriptions.set(id, subscription);
    }
    return subscription;
  }

  function updateSubscription(id: string, body: StripeObject): Reply {
    const subscription = subscriptionOf(id);
    const items = (subscription.items as { data: StripeObject[] }).data;
    for (const change of listOf(body.items)) {
      const item = items.find((i) => i.id === change.id);
      if (!item)
        return stripeError(400, `No such subscription item: '${String(change.id)}'`, 'resource_missing', 'items');
      if (change.price !== undefined) {
        const price = prices.get(String(change.price));
        if (!price)
          return stripeError(400, `No such price: '${String(change.price)}'`, 'resource_missing', 'items[0][price]');
        item.price = price;
      }
    }
    if (body.cancel_at_period_end !== undefined)
      subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
    if (body.metadata)
      subscription.metadata = { ...(subscription.metadata as StripeObject), ...(body.metadata as StripeObject) };
    return ok(subscription);
  }

  /** Stripe answers a cancelled subscription's cancel as if it did not exist. */
  function cancelSubscription(id: string): Reply {
    const subscription = subscriptionOf(id);
    if (subscription.status === 'canceled')
      return stripeError(404, `No such subscription: '${id}'`, 'resource_missing', 'id');
    const now = nowSeconds();
    Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now, cancel_at_period_end: false });
    return ok(subscription);
  }

  function payInvoice(invoiceId: string, paymentIntentId: string, amount: number): void {
    const fixture = stripeFixture('invoice_payment');
    invoicePayments.push({
      ...fixture,
      id: nextId('inpay'),
      invoice: invoiceId,
      amount_paid: amount,
      amount_requested: amount,
      currency: 'usd',
      status: 'paid',
      payment: { type: 'payment_intent', payment_intent: paymentIntentId },
      status_transitions: { canceled_at: null, paid_at: nowSeconds() },
    });
  }

  function listInvoicePayments(query: StripeObject): Reply {
    const found = invoicePayments.filter(
      (p) =>
        (query.invoice === undefined || p.invoice === query.invoice) &&
        (query.status === undefined || p.status === query.status),
    );
    return ok({ object: 'list', data: found, has_more: false, url: '/v1/invoice_payments' });
  }

  const paymentIntentOf = (payment: StripeObject) => (payment.payment as { payment_intent?: string }).payment_intent;
  const refundsOf = (paymentIntentId: string) => refunds.filter((r) => r.payment_intent === paymentIntentId);

  /** A whole refund of a PaymentIntent that paid an invoice here (amount is not supported). */
  function createRefund(body: StripeObject): Reply {
    const paymentIntent = String(body.payment_intent ?? '');
    const payment = invoicePayments.find((p) => paymentIntentOf(p) === paymentIntent);
    if (!payment)
      return stripeError(404, `No such payment_intent: '${paymentIntent}'`, 'resource_missing', 'payment_intent');
    if (refundsOf(paymentIntent).length > 0) {
      return stripeError(
        400,
        `Charge for payment_intent ${paymentIntent} has already been refunded.`,
        'charge_already_refunded',
      );
    }
    const refund = {
      ...stripeFixture('refund'),
      id: nextId('re'),
      amount: payment.amount_paid,
      charge: `ch_${paymentIntent}`,
      payment_intent: paymentIntent,
      reason: body.reason ?? null,
      metadata: body.metadata ?? {},
      created: nowSeconds(),
    };
    refunds.push(refund);
    return ok(refund);
  }

  function createCheckoutSession(body: StripeObject): Reply {
    for (const [index, line] of listOf(body.line_items).entries()) {
      if (line.price !== undefined && !prices.has(String(line.price))) {
        return stripeError(
          400,
          `No such price: '${String(line.price)}'`,
          'resource_missing',
          `line_items[${index}][price]`,
        );
      }
    }
    const id = nextId('cs_test');
    return ok({
      ...stripeFixture('checkout.session'),
      id,
      mode: body.mode,
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      client_reference_id: body.client_reference_id ?? null,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      expires_at: body.expires_at === undefined ? nowSeconds() + 24 * 3600 : Number(body.expires_at),
      metadata: body.metadata ?? {},
      payment_status: 'unpaid',
      status: 'open',
      url: `https://checkout.stripe.com/c/pay/${id}`,
    });
  }

  function createPortalSession(body: StripeObject): Reply {
    const id = nextId('bps');
    return ok({
      ...stripeFixture('billing_portal.session'),
      id,
      customer: body.customer,
      return_url: body.return_url ?? null,
      url: `https://billing.stripe.com/p/session/${id}`,
    });
  }

  const respond = (method: string, url: string, body: StripeObject): Reply => {
    if (method === 'POST' && url === '/v1/checkout/sessions') return createCheckoutSession(body);
    if (method === 'POST' && url === '/v1/billing_portal/sessions') return createPortalSession(body);
    if (method === 'POST' && url === '/v1/products') return createProduct(body);
    if (method === 'POST' && url === '/v1/prices') return createPrice(body);
    if (method === 'GET' && url === '/v1/prices') return listPrices(body);
    if (method === 'GET' && url === '/v1/invoice_payments') return listInvoicePayments(body);
    if (method === 'POST' && url === '/v1/refunds') return createRefund(body);
    const subscription = /^\/v1\/subscriptions\/([A-Za-z0-9_]+)$/.exec(url);
    if (subscription && method === 'GET') return ok(subscriptionOf(subscription[1]!));
    if (subscription && method === 'POST') return updateSubscription(subscription[1]!, body);
    if (subscription && method === 'DELETE') return cancelSubscription(subscription[1]!);
    return stripeError(404, `Unrecognized request URL (${method}: ${url}).`);
  };

  return {
    respond,
    subscription: (id) => subscriptions.get(id),
    price: priceByLookupKey,
    payInvoice,
    refundsOf,
    idsMade: () => counter,
  };
}
