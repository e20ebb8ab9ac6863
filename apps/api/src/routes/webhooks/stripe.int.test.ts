import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { shotSizeFor, type SubscriptionResponse } from '@prodshot/contracts';
import {
  createRepositories,
  CreditsRepository,
  GenerationsRepository,
  ledgerKeys,
  settlement,
  type LedgerKind,
} from '@prodshot/db';
import {
  mintSessionToken,
  startStripeFake,
  STRIPE_FIXTURES,
  stripeFixture,
  testClerkId,
  type StripeFake,
} from '@prodshot/testing';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import { multipartBody } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const WEBHOOK_SECRET = 'whsec_prodshot_test_secret';
const SECRET_KEY = 'sk_test_prodshot_fake';
const signer = new Stripe(SECRET_KEY);

describe(`Stripe provider against a local fake built from ${path.basename(STRIPE_FIXTURES)}`, () => {
  let fake: StripeFake;
  let testApp: TestApp;
  /** The app's warnings and errors, parsed, as it writes them. */
  const logLines: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });

  beforeAll(async () => {
    fake = await startStripeFake();
    testApp = await buildTestApp(stack, {
      logger: true,
      logStream,
      env: {
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: fake.url,
        LOG_LEVEL: 'warn',
      },
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await fake?.close();
  });

  async function newUser(): Promise<{ id: string; headers: { authorization: string } }> {
    const headers = {
      authorization: `Bearer ${await mintSessionToken({ clerkId: testClerkId(), claims: { email: 'payer@example.com' } })}`,
    };
    const response = await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers });
    return { id: response.json<{ id: string }>().id, headers };
  }

  async function subscriptionOf(user: { headers: { authorization: string } }): Promise<SubscriptionResponse> {
    return (
      await testApp.app.inject({ method: 'GET', url: '/api/users/subscription', headers: user.headers })
    ).json<SubscriptionResponse>();
  }

  function event(type: string, object: Record<string, unknown>, created?: number): Record<string, unknown> {
    return {
      ...stripeFixture('event'),
      id: `evt_${randomBytes(10).toString('hex')}`,
      type,
      data: { object },
      ...(created ? { created } : {}),
    };
  }

  function deliver(
    payload: string,
    signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
  ) {
    return testApp.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      payload,
    });
  }

  function subscriptionCheckout(
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

  function addOnCheckout(
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

  function invoicePaid(
    subscriptionId: string,
    invoiceId: string,
    period: { start: number; end: number },
    metadata: Record<string, string> = {},
    billingReason = 'subscription_cycle',
  ) {
    const invoice = stripeFixture('invoice') as { lines: { data: Record<string, unknown>[] } } & Record<
      string,
      unknown
    >;
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

  function subscriptionEvent(type: string, subscriptionId: string, fields: Record<string, unknown>, created?: number) {
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

  function invoicePaymentPaid(invoiceId: string, paymentIntent: string) {
    return event('invoice_payment.paid', {
      ...stripeFixture('invoice_payment'),
      id: `inpay_${randomBytes(6).toString('hex')}`,
      invoice: invoiceId,
      status: 'paid',
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
    });
  }

  /** charge.refunded as Stripe sends it: amount_refunded is the running total of the charge's refunds. */
  function chargeRefunded(paymentIntent: string, amount: number, amountRefunded: number) {
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

  function dispute(type: string, disputeId: string, paymentIntent: string, status: string) {
    return event(type, {
      ...stripeFixture('dispute'),
      id: disputeId,
      charge: `ch_${paymentIntent}`,
      payment_intent: paymentIntent,
      status,
    });
  }

  /** Credits spent on stored shots: reserved by a generation that settled each one. */
  async function spend(userId: string, amount: number): Promise<void> {
    const generation = await testApp.deps.db
      .insertInto('generations')
      .values({ user_id: userId, image_id: null, kind: 'manual', stage: null, error: null, request: {} })
      .returning('id')
      .executeTakeFirstOrThrow();
    const credits = new CreditsRepository(testApp.deps.db);
    await credits.reserve({ userId, amount, idempotencyKey: `spend:${generation.id}`, generationId: generation.id });
    for (let index = 0; index < amount; index += 1)
      await credits.settle({ userId, generationId: generation.id, idempotencyKey: `spent:${generation.id}:${index}` });
  }

  /** The user's ledger rows of these kinds, oldest first: [kind, subscription delta, add-on delta]. */
  async function movements(userId: string, kinds: LedgerKind[]): Promise<[LedgerKind, number, number][]> {
    const rows = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select(['kind', 'subscription_delta', 'addon_delta'])
      .where('user_id', '=', userId)
      .where('kind', 'in', kinds)
      .orderBy('id')
      .execute();
    return rows.map((r) => [r.kind, r.subscription_delta, r.addon_delta]);
  }

  function send(payload: Record<string, unknown>) {
    return deliver(JSON.stringify(payload));
  }

  it('creates a Checkout session for a plan with the spec return URL and answers its payment_link', async () => {
    const user = await newUser();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'growth' },
    });
    expect(response.statusCode).toBe(200);
    const link = response.json<{ payment_link: string }>().payment_link;
    expect(link).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: `Bearer ${SECRET_KEY}`,
    });
    const price = fake.price('prodshot_plan_growth_4999_month')!;
    expect(price).toMatchObject({
      currency: 'usd',
      unit_amount: 4999,
      recurring: { interval: 'month' },
      product: 'prodshot_plan_growth',
      metadata: { plan: 'growth' },
    });
    expect(sent.body).toMatchObject({
      mode: 'subscription',
      success_url: 'http://127.0.0.1:3000/dashboard?subscription_status=success&plan=growth',
      customer_email: 'payer@example.com',
      metadata: { userId: user.id, kind: 'subscription', plan: 'growth' },
      subscription_data: { metadata: { userId: user.id, plan: 'growth' } },
      line_items: { 0: { quantity: '1', price: price.id } },
    });
    expect(sent.body.line_items).not.toHaveProperty('0.price_data');
  });

  it('creates each plan price and product once, found again by lookup_key, not once per checkout', async () => {
    for (const planKey of ['starter', 'starter', 'pro', 'pro']) {
      const user = await newUser();
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/payments/subscription',
        headers: user.headers,
        payload: { planKey },
      });
      expect(response.json().payment_link).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    }
    const creations = (path: string, match: Record<string, string>) =>
      fake.requests.filter(
        (r) => r.method === 'POST' && r.path === path && Object.entries(match).every(([k, v]) => r.body[k] === v),
      ).length;
    expect(creations('/v1/prices', { lookup_key: 'prodshot_plan_starter_1499_month' })).toBe(1);
    expect(creations('/v1/prices', { lookup_key: 'prodshot_plan_pro_9999_month' })).toBe(1);
    expect(creations('/v1/products', { id: 'prodshot_plan_starter' })).toBe(1);
    expect(creations('/v1/products', { id: 'prodshot_plan_pro' })).toBe(1);

    // Another process (a new app on the same Stripe account) finds the prices by lookup_key.
    const other = await buildTestApp(stack, {
      env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url },
    });
    try {
      const mark = fake.requests.length;
      const headers = { authorization: `Bearer ${await mintSessionToken({ clerkId: testClerkId() })}` };
      expect(
        (
          await other.app.inject({
            method: 'POST',
            url: '/api/payments/subscription',
            headers,
            payload: { planKey: 'pro' },
          })
        ).statusCode,
      ).toBe(200);
      const asked = fake.requests.slice(mark);
      expect(asked.find((r) => r.method === 'GET' && r.path === '/v1/prices')?.body).toMatchObject({
        lookup_keys: { 0: 'prodshot_plan_pro_9999_month' },
        active: 'true',
      });
      expect(
        asked.filter((r) => r.method === 'POST' && (r.path === '/v1/prices' || r.path === '/v1/products')),
      ).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('creates a Checkout payment for an add-on pack at 6 cents an image', async () => {
    const user = await newUser();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/credits',
      headers: user.headers,
      payload: { planKey: 'addon-500' },
    });
    expect(response.json<{ payment_link: string }>().payment_link).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const price = fake.price('prodshot_addon-500_3000')!;
    expect(price).toMatchObject({ unit_amount: 3000, currency: 'usd', type: 'one_time', recurring: null });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      mode: 'payment',
      success_url: 'http://127.0.0.1:3000/dashboard?addon_status=success&plan=addon-500',
      line_items: { 0: { price: price.id } },
    });
  });

  it('activates the plan on checkout.session.completed and opens the Billing Portal for its customer', async () => {
    const user = await newUser();
    expect(
      (
        await deliver(
          JSON.stringify(subscriptionCheckout(user.id, `sub_${user.id.slice(0, 8)}`, `in_${user.id.slice(0, 8)}`)),
        )
      ).statusCode,
    ).toBe(200);
    const after = await subscriptionOf(user);
    expect(after).toMatchObject({
      subscription: { plan: 'growth', status: 'active' },
      subscriptionCredits: 800,
      addOnCredits: 0,
    });

    const again = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'growth' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have an active subscription to the Growth plan.');

    const portal = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/portal-session',
      headers: user.headers,
    });
    expect(portal.json<{ data: { url: string } }>().data.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/billing_portal/sessions',
      body: { customer: `cus_${user.id.slice(0, 8)}`, return_url: 'http://127.0.0.1:3000/profile' },
    });
  });

  it('grants nothing twice for a replayed event', async () => {
    const user = await newUser();
    const payload = JSON.stringify(addOnCheckout(user.id));
    expect((await deliver(payload)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(payload)).json()).toEqual({ received: true, duplicate: true });
    expect((await subscriptionOf(user)).addOnCredits).toBe(100);
    const claimed = await testApp.deps.db
      .selectFrom('processed_webhook_events')
      .select(['provider', 'type'])
      .where('event_id', '=', JSON.parse(payload).id)
      .execute();
    expect(claimed).toEqual([{ provider: 'stripe', type: 'checkout.session.completed' }]);
  });

  it('answers 400 to a bad signature and changes nothing', async () => {
    const user = await newUser();
    const delivered = addOnCheckout(user.id);
    const payload = JSON.stringify(delivered);
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const response = await deliver(payload, forged);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'invalid_signature' });
    const tampered = await deliver(
      payload.replace('addon-100', 'addon-1000'),
      signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    );
    expect(tampered.statusCode).toBe(400);
    expect((await subscriptionOf(user)).addOnCredits).toBe(0);
    const recorded = await testApp.deps.db
      .selectFrom('processed_webhook_events')
      .select('event_id')
      .where('event_id', '=', delivered.id as string)
      .execute();
    expect(recorded).toEqual([]);
  });

  it('grants once when two deliveries of one event arrive together', async () => {
    const user = await newUser();
    const payload = JSON.stringify(addOnCheckout(user.id, 'addon-500'));
    const responses = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(responses.filter((r) => r.json().duplicate === false)).toHaveLength(1);
    expect((await subscriptionOf(user)).addOnCredits).toBe(500);
  });

  it('sets subscription credits to the allowance on invoice.paid for a new period, keeping add-on credits', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await deliver(JSON.stringify(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`)));
    await deliver(JSON.stringify(addOnCheckout(user.id)));
    // Spend 300 of the 800 so that a rollover would show as 1300 and a no-op as 500.
    await spend(user.id, 300);
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 500, addOnCredits: 100 });

    const start = Math.floor(Date.UTC(2031, 0, 1) / 1000);
    const end = Math.floor(Date.UTC(2031, 1, 1) / 1000);
    const renewal = JSON.stringify(invoicePaid(subscriptionId, `in_second_${subscriptionId}`, { start, end }));
    expect((await deliver(renewal)).statusCode).toBe(200);
    const after = await subscriptionOf(user);
    expect(after).toMatchObject({ subscriptionCredits: 800, addOnCredits: 100 });
    expect(after.subscription).toMatchObject({
      plan: 'growth',
      status: 'active',
      startDate: '2031-01-01T00:00:00.000Z',
      endDate: '2031-02-01T00:00:00.000Z',
    });
  });

  it('grants each thing once when every event type arrives twice, out of order and concurrently', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const firstInvoice = `in_first_${subscriptionId}`;
    const metadata = { userId: user.id, plan: 'growth' };
    const period1 = { start: Math.floor(Date.UTC(2032, 0, 1) / 1000), end: Math.floor(Date.UTC(2032, 1, 1) / 1000) };
    const period2 = { start: period1.end, end: Math.floor(Date.UTC(2032, 2, 1) / 1000) };
    const events = [
      subscriptionCheckout(user.id, subscriptionId, firstInvoice),
      invoicePaid(subscriptionId, firstInvoice, period1, metadata, 'subscription_create'),
      invoicePaid(subscriptionId, `in_second_${subscriptionId}`, period2, metadata),
      addOnCheckout(user.id),
    ].map((e) => JSON.stringify(e));
    // Latest first, each twice, all at once.
    const deliveries = [...events].reverse().flatMap((payload) => [payload, payload]);
    const responses = await Promise.all(deliveries.map((payload) => deliver(payload)));
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode >= 500)).toBe(true);
    // Stripe redelivers what was not acknowledged; a second round settles anything refused.
    await Promise.all(events.map((payload) => deliver(payload)));

    const grants = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select(['kind', 'idempotency_key'])
      .where('user_id', '=', user.id)
      .execute();
    expect(grants.filter((g) => g.kind === 'grant_addon')).toHaveLength(1);
    // Whichever order they landed in, the newest period's allowance was granted once, and a late
    // older invoice granted nothing on top of it.
    const resets = grants.filter((g) => g.kind === 'reset_subscription').map((g) => g.idempotency_key);
    expect(resets).toContain(`stripe:invoice:in_second_${subscriptionId}`);
    expect(new Set(resets).size).toBe(resets.length);
    const after = await subscriptionOf(user);
    expect(after).toMatchObject({ subscriptionCredits: 800, addOnCredits: 100 });
    expect(after.subscription).toMatchObject({ plan: 'growth', status: 'active', endDate: '2032-03-01T00:00:00.000Z' });
  });

  it('switches plans from the next invoice, without a second checkout', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await deliver(JSON.stringify(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`)));
    const change = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'pro' },
    });
    expect(change.json()).toEqual({ payment_link: null });
    const proPrice = fake.price('prodshot_plan_pro_9999_month')!.id;
    const item = (
      fake.subscription(subscriptionId)!.items as {
        data: { id: string; price: { id: string }; current_period_end: number }[];
      }
    ).data[0]!;
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v1/subscriptions/${subscriptionId}`,
      body: { proration_behavior: 'none', items: { 0: { id: item.id, price: proPrice } }, metadata: { plan: 'pro' } },
    });
    expect(item.price.id).toBe(proPrice);
    expect(
      fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === user.id),
    ).toEqual([]);
    // What the header and profile show: the pending plan, and the date it takes effect (the paid period's end, as Stripe has it).
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: {
        plan: 'growth',
        pendingPlan: 'pro',
        endDate: new Date(item.current_period_end * 1000).toISOString(),
      },
      subscriptionCredits: 800,
    });

    await deliver(
      JSON.stringify(
        invoicePaid(subscriptionId, `in_next_${subscriptionId}`, { start: 1_900_000_000, end: 1_902_592_000 }),
      ),
    );
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'pro', pendingPlan: null },
      subscriptionCredits: 1700,
    });
  });

  it('cancels at period end through Stripe and follows subscription updated/deleted events', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await deliver(JSON.stringify(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`)));
    const cancel = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/cancel-subscription',
      headers: user.headers,
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data).toMatchObject({
      message: 'Your subscription has been successfully canceled.',
      subscription: { status: 'canceled', cancelAtPeriodEnd: true },
    });
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/v1/subscriptions/${subscriptionId}`,
      body: { cancel_at_period_end: 'true' },
    });
    expect((await subscriptionOf(user)).subscriptionCredits).toBe(800);

    const subscription = {
      ...stripeFixture('subscription'),
      id: subscriptionId,
      status: 'past_due',
      cancel_at: null,
      cancel_at_period_end: false,
    };
    await deliver(JSON.stringify(event('customer.subscription.updated', subscription)));
    expect((await subscriptionOf(user)).subscription.status).toBe('past_due');
    await deliver(JSON.stringify(event('customer.subscription.deleted', { ...subscription, status: 'canceled' })));
    expect((await subscriptionOf(user)).subscription.status).toBe('canceled');
  });
  it('grants nothing for an unpaid checkout, then exactly once when its delayed payment succeeds', async () => {
    const user = await newUser();
    const session = {
      id: `cs_test_${randomBytes(6).toString('hex')}`,
      paymentIntent: `pi_${randomBytes(6).toString('hex')}`,
    };
    await send(addOnCheckout(user.id, 'addon-500', { ...session, paymentStatus: 'unpaid' }));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0, subscriptionCredits: 0 });

    const succeeded = { ...session, paymentStatus: 'paid', type: 'checkout.session.async_payment_succeeded' };
    const payload = JSON.stringify(addOnCheckout(user.id, 'addon-500', succeeded));
    await deliver(payload);
    await deliver(payload);
    // Stripe may also send the same news as another event: the session grants once, whatever the event.
    await send(addOnCheckout(user.id, 'addon-500', succeeded));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 500, subscriptionCredits: 0 });
    expect(await movements(user.id, ['grant_addon'])).toEqual([['grant_addon', 0, 500]]);
  });

  it('holds an unpaid subscription checkout as pending: no credits, no second Checkout (409), then the plan once paid', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const session = { id: `cs_test_${randomBytes(6).toString('hex')}` };
    await send(
      subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`, {
        ...session,
        paymentStatus: 'unpaid',
      }),
    );
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'growth', status: 'incomplete' },
      subscriptionCredits: 0,
      isActive: false,
    });

    const again = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'pro' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'subscription_pending',
      message:
        'Your payment for the Growth plan is still being processed. You can choose a plan again once it goes through or fails.',
    });
    expect(
      fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === user.id),
    ).toEqual([]);

    const succeeded = subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`, {
      ...session,
      type: 'checkout.session.async_payment_succeeded',
    });
    await send(succeeded);
    await send({ ...succeeded, id: `evt_${randomBytes(10).toString('hex')}` });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'growth', status: 'active' },
      subscriptionCredits: 800,
    });
    expect(await movements(user.id, ['reset_subscription'])).toEqual([['reset_subscription', 800, 0]]);
  });

  it('lets a seller check out again once the delayed payment of a pending subscription failed', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const session = { id: `cs_test_${randomBytes(6).toString('hex')}`, paymentStatus: 'unpaid' };
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`, session));
    await send(
      subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`, {
        ...session,
        type: 'checkout.session.async_payment_failed',
      }),
    );
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'incomplete_expired' },
      subscriptionCredits: 0,
    });
    const again = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'growth' },
    });
    expect(again.json<{ payment_link: string }>().payment_link).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  });

  it('sends a seller whose subscription is past due to the Billing Portal, never to a second Checkout', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    await send(subscriptionEvent('customer.subscription.updated', subscriptionId, { status: 'past_due' }));
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'pro' },
    });
    expect(response.json<{ payment_link: string }>().payment_link).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/billing_portal/sessions',
      body: { customer: `cus_${user.id.slice(0, 8)}` },
    });
    expect(
      fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === user.id),
    ).toEqual([]);
  });

  it('withdraws a pending plan change when the current plan is chosen again', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'pro' },
    });
    const back = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers: user.headers,
      payload: { planKey: 'growth' },
    });
    expect(back.json()).toEqual({ payment_link: null });
    const item = (fake.subscription(subscriptionId)!.items as { data: { price: { id: string } }[] }).data[0]!;
    expect(item.price.id).toBe(fake.price('prodshot_plan_growth_4999_month')!.id);
    expect((await subscriptionOf(user)).subscription).toMatchObject({ plan: 'growth', pendingPlan: null });
  });

  it('refills credits only for a new subscription or a renewal: never for a proration, manual or final invoice', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const metadata = { userId: user.id, plan: 'growth' };
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    await spend(user.id, 300);
    const midPeriod = { start: Math.floor(Date.UTC(2034, 0, 10) / 1000), end: Math.floor(Date.UTC(2034, 1, 1) / 1000) };
    for (const reason of ['subscription_update', 'manual', 'subscription_threshold']) {
      expect(
        (await send(invoicePaid(subscriptionId, `in_${reason}_${subscriptionId}`, midPeriod, metadata, reason)))
          .statusCode,
      ).toBe(200);
    }
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { status: 'active' }, subscriptionCredits: 500 });

    await send(subscriptionEvent('customer.subscription.deleted', subscriptionId, { status: 'canceled' }));
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: false },
      subscriptionCredits: 0,
    });
    // A deleted subscription's late invoice revives nothing, whatever its reason.
    const later = { start: Math.floor(Date.UTC(2034, 1, 1) / 1000), end: Math.floor(Date.UTC(2034, 2, 1) / 1000) };
    for (const reason of ['subscription_cycle', 'subscription_create', 'manual']) {
      expect(
        (await send(invoicePaid(subscriptionId, `in_final_${reason}_${subscriptionId}`, later, metadata, reason)))
          .statusCode,
      ).toBe(200);
    }
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { status: 'canceled' }, subscriptionCredits: 0 });
  });

  /** prodshot_second_subscriptions_cancelled_total as the ops listener serves it. */
  async function secondSubscriptionsCounted(): Promise<number> {
    const text = (await testApp.ops.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(/^prodshot_second_subscriptions_cancelled_total\{[^}]*\} (\d+)$/m.exec(text)?.[1] ?? 'NaN');
  }

  it('cancels a second subscription at once and refunds its invoice, keeps the one the seller holds, and tells the seller and the operator', async () => {
    const user = await newUser();
    const kept = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, kept, `in_first_${kept}`));
    await spend(user.id, 100);
    const counted = await secondSubscriptionsCounted();
    // A second tab's Checkout went through too: Stripe started a second subscription and took its first payment.
    const [second, secondInvoice, secondPayment] = [`sub_other_${kept}`, `in_other_${kept}`, `pi_other_${kept}`];
    fake.payInvoice(secondInvoice, secondPayment, 9999);
    const period = { start: Math.floor(Date.UTC(2035, 0, 1) / 1000), end: Math.floor(Date.UTC(2035, 1, 1) / 1000) };
    expect(
      (
        await send(invoicePaid(second, secondInvoice, period, { userId: user.id, plan: 'pro' }, 'subscription_create'))
      ).json(),
    ).toEqual({ received: true, duplicate: false });

    expect(fake.subscription(second)).toMatchObject({ status: 'canceled' });
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${second}`)).toHaveLength(
      1,
    );
    expect(fake.refundsOf(secondPayment)).toEqual([expect.objectContaining({ amount: 9999, reason: 'duplicate' })]);
    expect(fake.subscription(kept)).not.toMatchObject({ status: 'canceled' });
    const warned = logLines.filter(
      (line) => line.msg === 'second stripe subscription cancelled' && line.cancelledSubscriptionId === second,
    );
    expect(warned).toEqual([
      expect.objectContaining({ level: 40, userId: user.id, keptSubscriptionId: kept, refunded: true }),
    ]);
    expect(await secondSubscriptionsCounted()).toBe(counted + 1);
    const after = await subscriptionOf(user);
    expect(after).toMatchObject({ subscription: { plan: 'growth', status: 'active' }, subscriptionCredits: 700 });
    expect(after.cancelledSecondSubscription).toMatchObject({ plan: 'pro', refunded: true });

    // Its checkout event follows: nothing is cancelled or refunded twice, nor counted twice.
    expect((await send(subscriptionCheckout(user.id, second, secondInvoice, { plan: 'pro' }))).statusCode).toBe(200);
    expect(fake.refundsOf(secondPayment)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${second}`)).toHaveLength(
      1,
    );
    expect(await secondSubscriptionsCounted()).toBe(counted + 1);
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'growth', status: 'active' },
      subscriptionCredits: 700,
    });

    // A renewal of an old subscription the seller has since replaced is nothing to cancel: it ended already.
    expect(
      (await send(invoicePaid(`sub_old_${kept}`, `in_old_${kept}`, period, { userId: user.id, plan: 'pro' })))
        .statusCode,
    ).toBe(200);
    expect(fake.subscription(`sub_old_${kept}`)).toBeUndefined();
  });

  it('cancels a second subscription whose payment is still on its way, and refunds it when the payment lands', async () => {
    const user = await newUser();
    const kept = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, kept, `in_first_${kept}`));
    const [second, secondInvoice, secondPayment] = [`sub_late_${kept}`, `in_late_${kept}`, `pi_late_${kept}`];
    await send(subscriptionCheckout(user.id, second, secondInvoice, { paymentStatus: 'unpaid' }));
    expect(fake.subscription(second)).toMatchObject({ status: 'canceled' });
    expect((await subscriptionOf(user)).cancelledSecondSubscription).toMatchObject({ plan: 'growth', refunded: false });

    fake.payInvoice(secondInvoice, secondPayment, 4999);
    const period = { start: Math.floor(Date.UTC(2035, 0, 1) / 1000), end: Math.floor(Date.UTC(2035, 1, 1) / 1000) };
    expect(
      (
        await send(
          invoicePaid(second, secondInvoice, period, { userId: user.id, plan: 'growth' }, 'subscription_create'),
        )
      ).statusCode,
    ).toBe(200);
    expect(fake.refundsOf(secondPayment)).toHaveLength(1);
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'active' },
      subscriptionCredits: 800,
      cancelledSecondSubscription: { refunded: true },
    });
  });

  it('refuses a second subscription Checkout while one is open, and answers a retry of the same request with the same link', async () => {
    const user = await newUser();
    const open = (idempotencyKey: string, planKey = 'growth') =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/payments/subscription',
        headers: { ...user.headers, 'idempotency-key': idempotencyKey },
        payload: { planKey },
      });
    const before = Date.now();
    const first = await open('tab-1');
    expect(first.statusCode).toBe(200);
    const link = first.json<{ payment_link: string }>().payment_link;
    // The session closes when the bar on a second one lifts: Stripe's shortest life, 30 minutes, and a margin.
    const expiresAt = Number(fake.requests.at(-1)!.body.expires_at) * 1000;
    expect(expiresAt - before).toBeGreaterThan(30 * 60_000);
    expect(expiresAt - before).toBeLessThanOrEqual(33 * 60_000);
    expect((await open('tab-1')).json()).toEqual({ payment_link: link });

    const others = await Promise.all([open('tab-2'), open('tab-3', 'pro'), open('tab-4', 'starter')]);
    for (const refused of others) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'checkout_open',
        message: 'You already have a subscription checkout open. Finish paying there, or start again in 32 minutes.',
      });
    }
    expect(
      fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === user.id),
    ).toHaveLength(1);
  });

  it('opens one subscription Checkout of several asked for at once', async () => {
    const user = await newUser();
    const responses = await Promise.all(
      ['a', 'b', 'c', 'd'].map((key) =>
        testApp.app.inject({
          method: 'POST',
          url: '/api/payments/subscription',
          headers: { ...user.headers, 'idempotency-key': key },
          payload: { planKey: 'growth' },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(
      fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === user.id),
    ).toHaveLength(1);
  });

  it('asks Stripe to redeliver a renewal that overtook the start of its subscription', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const period = { start: Math.floor(Date.UTC(2036, 1, 1) / 1000), end: Math.floor(Date.UTC(2036, 2, 1) / 1000) };
    const renewal = JSON.stringify(
      invoicePaid(subscriptionId, `in_second_${subscriptionId}`, period, { userId: user.id, plan: 'growth' }),
    );
    const early = await deliver(renewal);
    expect(early.statusCode).toBe(503);
    // What an operator reads in Stripe's delivery log: which invoice waits for which subscription.
    expect(early.json()).toMatchObject({
      code: 'event_too_early',
      message: `invoice in_second_${subscriptionId} renews subscription ${subscriptionId}, which has not started here yet`,
    });
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    await spend(user.id, 100);
    expect((await deliver(renewal)).json()).toEqual({ received: true, duplicate: false });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { endDate: '2036-03-01T00:00:00.000Z' },
      subscriptionCredits: 800,
    });
  });

  it('changes nothing for a late invoice or subscription event of a superseded period, by the balance as well as the dates', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    const current = { start: Math.floor(Date.UTC(2033, 1, 1) / 1000), end: Math.floor(Date.UTC(2033, 2, 1) / 1000) };
    await send(invoicePaid(subscriptionId, `in_current_${subscriptionId}`, current));
    await spend(user.id, 100);
    const older = { start: Math.floor(Date.UTC(2033, 0, 1) / 1000), end: current.start };
    expect((await send(invoicePaid(subscriptionId, `in_late_${subscriptionId}`, older))).statusCode).toBe(200);
    const item = (stripeFixture('subscription') as { items: { data: Record<string, unknown>[] } }).items.data[0]!;
    const olderItem = { ...item, current_period_start: older.start, current_period_end: older.end };
    await send(
      subscriptionEvent('customer.subscription.updated', subscriptionId, {
        items: { object: 'list', data: [olderItem], has_more: false },
      }),
    );
    const after = await subscriptionOf(user);
    expect(after.subscriptionCredits).toBe(700);
    expect(after.subscription).toMatchObject({
      startDate: '2033-02-01T00:00:00.000Z',
      endDate: '2033-03-01T00:00:00.000Z',
    });
  });

  it("applies subscription events in Stripe's order: a late older event changes nothing", async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    const t = 1_900_000_000;
    await send(
      subscriptionEvent('customer.subscription.updated', subscriptionId, { cancel_at_period_end: true }, t + 20),
    );
    await send(subscriptionEvent('customer.subscription.updated', subscriptionId, { status: 'past_due' }, t + 10));
    expect((await subscriptionOf(user)).subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });

    await send(
      subscriptionEvent('customer.subscription.updated', subscriptionId, { cancel_at_period_end: false }, t + 30),
    );
    expect((await subscriptionOf(user)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    await send(subscriptionEvent('customer.subscription.deleted', subscriptionId, { status: 'canceled' }, t + 40));
    await send(subscriptionEvent('customer.subscription.updated', subscriptionId, { status: 'active' }, t + 35));
    await send(subscriptionEvent('customer.subscription.updated', subscriptionId, { status: 'active' }, t + 50));
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: false },
      subscriptionCredits: 0,
    });
  });

  it('keeps plan quality and credits after a cancel until the paid period ends, then subscription credits go to 0 and add-on credits stay', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const generations = testApp.app.services.lookups;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    await send(addOnCheckout(user.id));
    expect(shotSizeFor(await generations.effectivePlan(user.id))).toBe(4096);

    await testApp.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: user.headers });
    const periodEnd = (fake.subscription(subscriptionId)!.items as { data: { current_period_end: number }[] }).data[0]!
      .current_period_end;
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: true, endDate: new Date(periodEnd * 1000).toISOString() },
      subscriptionCredits: 800,
      addOnCredits: 100,
    });
    expect(shotSizeFor(await generations.effectivePlan(user.id))).toBe(4096);

    // Stripe ends the subscription when the paid period is over.
    await send(subscriptionEvent('customer.subscription.deleted', subscriptionId, { status: 'canceled' }));
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: false },
      subscriptionCredits: 0,
      addOnCredits: 100,
    });
    expect(await movements(user.id, ['expire_subscription'])).toEqual([['expire_subscription', -800, 0]]);
    expect(shotSizeFor(await generations.effectivePlan(user.id))).toBe(1024);
  });

  it("takes back an add-on pack's unspent credits on a refund, its share at each partial refund, never below 0", async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    await spend(user.id, 30);

    const half = JSON.stringify(chargeRefunded(paymentIntent, 600, 300));
    await deliver(half);
    await deliver(half);
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 20 });
    await send(chargeRefunded(paymentIntent, 600, 600));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
    expect(await movements(user.id, ['revoke'])).toEqual([
      ['revoke', 0, -50],
      ['revoke', 0, -20],
    ]);
    // A refund of a payment that granted nothing here takes nothing.
    await send(chargeRefunded(`pi_unknown_${paymentIntent}`, 600, 600));
    expect(await movements(user.id, ['revoke'])).toHaveLength(2);
  });

  it("takes back a refunded invoice's period credits while that period lasts, and nothing of a later period's", async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const [first, second] = [`in_first_${subscriptionId}`, `in_second_${subscriptionId}`];
    const [firstPayment, secondPayment] = [`pi_first_${subscriptionId}`, `pi_second_${subscriptionId}`];
    // Stripe may say which payment paid an invoice before the invoice's grant arrives.
    await send(invoicePaymentPaid(first, firstPayment));
    await send(subscriptionCheckout(user.id, subscriptionId, first));
    await send(addOnCheckout(user.id));
    await spend(user.id, 50);
    // Half the first period's price back: half its allowance goes, from what is left of it.
    await send(chargeRefunded(firstPayment, 4999, 2500));
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 350, addOnCredits: 100 });

    const period = { start: Math.floor(Date.UTC(2037, 0, 1) / 1000), end: Math.floor(Date.UTC(2037, 1, 1) / 1000) };
    const renewal = invoicePaid(subscriptionId, second, period);
    // An expanded invoice lists its payments itself.
    (renewal.data as { object: Record<string, unknown> }).object.payments = {
      object: 'list',
      data: [
        {
          ...stripeFixture('invoice_payment'),
          invoice: second,
          status: 'paid',
          payment: { type: 'payment_intent', payment_intent: secondPayment },
        },
      ],
      has_more: false,
      url: `/v1/invoice_payments?invoice=${second}`,
    };
    await send(renewal);
    await spend(user.id, 50);

    await send(chargeRefunded(firstPayment, 4999, 4999));
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 750, addOnCredits: 100 });
    await send(chargeRefunded(secondPayment, 4999, 4999));
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 0, addOnCredits: 100 });
    expect(await movements(user.id, ['revoke'])).toEqual([
      ['revoke', -400, 0],
      ['revoke', -750, 0],
    ]);
  });

  it('takes credits back when a dispute withdraws the funds and gives them back when it is won; a lost one takes them once', async () => {
    const user = await newUser();
    const [won, lost] = [`pi_won_${randomBytes(6).toString('hex')}`, `pi_lost_${randomBytes(6).toString('hex')}`];
    await send(addOnCheckout(user.id, 'addon-500', { paymentIntent: won }));
    await send(dispute('charge.dispute.funds_withdrawn', `dp_${won}`, won, 'needs_response'));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
    await send(dispute('charge.dispute.closed', `dp_${won}`, won, 'won'));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 500 });

    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent: lost }));
    await send(dispute('charge.dispute.funds_withdrawn', `dp_${lost}`, lost, 'needs_response'));
    await send(dispute('charge.dispute.closed', `dp_${lost}`, lost, 'lost'));
    // An inquiry moves no money: closing it changes nothing.
    await send(dispute('charge.dispute.closed', `dp_inquiry_${won}`, won, 'warning_closed'));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 500 });
    expect(await movements(user.id, ['revoke', 'restore'])).toEqual([
      ['revoke', 0, -500],
      ['restore', 0, 500],
      ['revoke', 0, -100],
    ]);
  });

  it('gives credits back only for a dispute closed as won, whatever else it closes as', async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    await send(dispute('charge.dispute.funds_withdrawn', `dp_${paymentIntent}`, paymentIntent, 'needs_response'));
    expect(
      (await send(dispute('charge.dispute.closed', `dp_${paymentIntent}`, paymentIntent, 'prevented'))).json(),
    ).toEqual({ received: true, duplicate: false });
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
    expect(await movements(user.id, ['revoke', 'restore'])).toEqual([['revoke', 0, -100]]);
  });

  it('takes back what a lost dispute owes even without funds_withdrawn', async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    await send(dispute('charge.dispute.closed', `dp_${paymentIntent}`, paymentIntent, 'lost'));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
  });

  /** A Checkout session as Stripe sends it, completed and paid unless `fields` say otherwise. */
  function checkoutSession(fields: Record<string, unknown>, type = 'checkout.session.completed') {
    return event(type, {
      ...stripeFixture('checkout.session'),
      id: `cs_test_${randomBytes(6).toString('hex')}`,
      payment_status: 'paid',
      status: 'complete',
      ...fields,
    });
  }

  it("acknowledges checkouts that are nobody's here or buy nothing we sell, and grants nothing for them", async () => {
    const user = await newUser();
    const pack = { kind: 'addon', plan: 'addon-100' };
    const sessions = [
      // Nobody we know: no metadata at all, a user id that is not ours, one of a user who does not exist.
      checkoutSession({ mode: 'payment', metadata: null }),
      checkoutSession({ mode: 'payment', metadata: { ...pack, userId: 'user_2NfXlNEUMrdJb4ZSzsDcv0oQF3A' } }),
      checkoutSession({ mode: 'payment', metadata: { ...pack, userId: randomUUID() } }),
      // Our seller, but nothing we sell: a Checkout made elsewhere, a pack or a plan we do not have, no subscription.
      checkoutSession({ mode: 'payment', client_reference_id: user.id, metadata: null }),
      checkoutSession({ mode: 'payment', metadata: { userId: user.id, kind: 'addon', plan: 'addon-7' } }),
      checkoutSession({
        mode: 'subscription',
        subscription: `sub_${randomBytes(6).toString('hex')}`,
        metadata: { userId: user.id, plan: 'growth' },
      }),
      checkoutSession({
        mode: 'subscription',
        subscription: `sub_${randomBytes(6).toString('hex')}`,
        metadata: { userId: user.id, kind: 'subscription', plan: 'enterprise' },
      }),
      checkoutSession({
        mode: 'subscription',
        subscription: null,
        metadata: { userId: user.id, kind: 'subscription', plan: 'growth' },
      }),
    ];
    for (const session of sessions) expect((await send(session)).json()).toEqual({ received: true, duplicate: false });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'none', status: 'none' },
      subscriptionCredits: 0,
      addOnCredits: 0,
    });
  });

  it('grants a pack that cost nothing (a 100% coupon) to the seller named by client_reference_id', async () => {
    const user = await newUser();
    const free = {
      mode: 'payment',
      payment_status: 'no_payment_required',
      payment_intent: null,
      client_reference_id: user.id,
      metadata: { kind: 'addon', plan: 'addon-100' },
    };
    expect((await send(checkoutSession(free))).statusCode).toBe(200);
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 100 });
  });

  it('grants a subscription checkout that names no invoice once per session, and each seller their own', async () => {
    const [first, second] = [await newUser(), await newUser()];
    for (const user of [first, second]) {
      const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
      const completed = subscriptionCheckout(user.id, subscriptionId, 'in_unused');
      const session = (completed.data as { object: Record<string, unknown> }).object;
      session.invoice = null;
      await send(completed);
      await send(event('checkout.session.async_payment_succeeded', session));
    }
    for (const user of [first, second]) {
      expect(await subscriptionOf(user)).toMatchObject({
        subscription: { plan: 'growth', status: 'active' },
        subscriptionCredits: 800,
      });
      expect(await movements(user.id, ['reset_subscription'])).toEqual([['reset_subscription', 800, 0]]);
    }
  });

  it('leaves what an overtaking first invoice and later events set when the checkout arrives after them', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const firstInvoice = `in_first_${subscriptionId}`;
    const period = { start: Math.floor(Date.UTC(2038, 0, 1) / 1000), end: Math.floor(Date.UTC(2038, 1, 1) / 1000) };
    await send(
      invoicePaid(subscriptionId, firstInvoice, period, { userId: user.id, plan: 'growth' }, 'subscription_create'),
    );
    const opened = {
      plan: 'growth',
      status: 'active',
      startDate: '2038-01-01T00:00:00.000Z',
      endDate: '2038-02-01T00:00:00.000Z',
    };
    expect(await subscriptionOf(user)).toMatchObject({ subscription: opened, subscriptionCredits: 800 });
    await spend(user.id, 100);
    // The seller cancels at once, before Stripe's checkout event reaches us: the late checkout must not undo it.
    await send(subscriptionEvent('customer.subscription.updated', subscriptionId, { cancel_at_period_end: true }));
    await send(subscriptionCheckout(user.id, subscriptionId, firstInvoice));
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { ...opened, status: 'canceled', cancelAtPeriodEnd: true },
      subscriptionCredits: 700,
    });
  });

  it('acknowledges invoices that pay for no subscription of ours, and grants nothing for them', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const period = { start: Math.floor(Date.UTC(2039, 0, 1) / 1000), end: Math.floor(Date.UTC(2039, 1, 1) / 1000) };
    const invoice = { ...stripeFixture('invoice'), status: 'paid' };
    const invoices = [
      // A one-off invoice and an accepted quote's: no subscription.
      event('invoice.paid', { ...invoice, id: `in_manual_${subscriptionId}`, billing_reason: 'manual', parent: null }),
      event('invoice.paid', {
        ...invoice,
        id: `in_quote_${subscriptionId}`,
        billing_reason: 'quote_accept',
        parent: { type: 'quote_details', quote_details: { quote: 'qt_1' }, subscription_details: null },
      }),
      // Another app's subscription on the same Stripe account: its metadata names nobody here, or no plan we sell.
      invoicePaid(
        subscriptionId,
        `in_a_${subscriptionId}`,
        period,
        { userId: randomUUID(), plan: 'growth' },
        'subscription_create',
      ),
      invoicePaid(subscriptionId, `in_b_${subscriptionId}`, period, { userId: randomUUID(), plan: 'growth' }),
      invoicePaid(
        subscriptionId,
        `in_c_${subscriptionId}`,
        period,
        { userId: user.id, plan: 'enterprise' },
        'subscription_create',
      ),
      invoicePaid(subscriptionId, `in_d_${subscriptionId}`, period, {}, 'subscription_create'),
    ];
    for (const paid of invoices) expect((await send(paid)).json()).toEqual({ received: true, duplicate: false });
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { plan: 'none' }, subscriptionCredits: 0 });
  });

  it('takes the paid period from the subscription line of an invoice that also bills a one-off item', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    const renewal = invoicePaid(subscriptionId, `in_second_${subscriptionId}`, {
      start: Math.floor(Date.UTC(2040, 0, 1) / 1000),
      end: Math.floor(Date.UTC(2040, 1, 1) / 1000),
    });
    const lines = (renewal.data as { object: { lines: { data: Record<string, unknown>[] } } }).object.lines;
    const oneOff = { ...lines.data[0], id: 'il_setup', period: { start: 1_700_000_000, end: 1_700_000_000 } };
    lines.data.unshift(
      { ...oneOff, parent: null },
      {
        ...oneOff,
        parent: {
          type: 'invoice_item_details',
          invoice_item_details: {
            invoice_item: 'ii_setup',
            proration: false,
            proration_details: { credited_items: null },
            subscription: null,
          },
          subscription_item_details: null,
        },
      },
    );
    await send(renewal);
    expect((await subscriptionOf(user)).subscription).toMatchObject({
      startDate: '2040-01-01T00:00:00.000Z',
      endDate: '2040-02-01T00:00:00.000Z',
    });

    // A renewal whose payload lists none of its lines still pays for a period.
    await spend(user.id, 100);
    const bare = invoicePaid(subscriptionId, `in_third_${subscriptionId}`, {
      start: Math.floor(Date.UTC(2040, 1, 1) / 1000),
      end: Math.floor(Date.UTC(2040, 2, 1) / 1000),
    });
    (bare.data as { object: { lines: { data: unknown[] } } }).object.lines.data = [];
    expect((await send(bare)).statusCode).toBe(200);
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 800 });
  });

  it('follows a subscription event: a cancel at a date, a status Stripe reports, a plan changed in the Billing Portal, a moved period end', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    const fixtureItem = (stripeFixture('subscription') as { items: { data: Record<string, unknown>[] } }).items
      .data[0]!;
    const period = {
      current_period_start: Math.floor(Date.UTC(2041, 0, 1) / 1000),
      current_period_end: Math.floor(Date.UTC(2041, 1, 1) / 1000),
    };
    const items = (fields: Record<string, unknown>, plan?: string) => {
      const price = { ...(fixtureItem.price as Record<string, unknown>), metadata: plan ? { plan } : {} };
      return { items: { object: 'list', data: [{ ...fixtureItem, ...period, price, ...fields }], has_more: false } };
    };
    let created = 1_900_000_000;
    const update = async (fields: Record<string, unknown>) => {
      created += 10;
      await send(subscriptionEvent('customer.subscription.updated', subscriptionId, fields, created));
      return (await subscriptionOf(user)).subscription;
    };
    expect(await update({ cancel_at: period.current_period_end, ...items({}) })).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    expect(await update({ status: 'past_due', cancel_at_period_end: true, ...items({}) })).toMatchObject({
      status: 'past_due',
      cancelAtPeriodEnd: true,
    });
    expect(await update(items({}, 'pro'))).toMatchObject({ status: 'active', plan: 'growth', pendingPlan: 'pro' });
    // A price not made by this app says no plan: the pending change stands.
    expect(await update(items({}))).toMatchObject({ plan: 'growth', pendingPlan: 'pro' });
    expect(await update(items({}, 'growth'))).toMatchObject({ plan: 'growth', pendingPlan: null });
    // A trial extended or a billing date moved: same start, later end.
    const later = Math.floor(Date.UTC(2041, 1, 15) / 1000);
    expect(await update(items({ current_period_end: later }))).toMatchObject({
      startDate: '2041-01-01T00:00:00.000Z',
      endDate: '2041-02-15T00:00:00.000Z',
    });
  });

  it('acknowledges subscription, payment and dispute events about nothing it granted, and changes nothing', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    const unknown = `sub_unknown_${subscriptionId}`;
    const events = [
      subscriptionEvent('customer.subscription.updated', unknown, { status: 'past_due' }),
      subscriptionCheckout(user.id, unknown, `in_unknown_${subscriptionId}`, {
        type: 'checkout.session.async_payment_failed',
        paymentStatus: 'unpaid',
      }),
      // A failed delayed payment of another session never ends the subscription that was paid.
      subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`, {
        type: 'checkout.session.async_payment_failed',
        paymentStatus: 'unpaid',
      }),
      chargeRefunded(`pi_unknown_${subscriptionId}`, 4999, 4999),
      dispute(
        'charge.dispute.funds_withdrawn',
        `dp_unknown_${subscriptionId}`,
        `pi_unknown_${subscriptionId}`,
        'needs_response',
      ),
    ];
    for (const delivered of events)
      expect((await send(delivered)).json()).toEqual({ received: true, duplicate: false });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'growth', status: 'active' },
      subscriptionCredits: 800,
    });
  });

  it("links only an expanded invoice's paid payments to its period: refunding a failed attempt's charge takes nothing back", async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    const renewalId = `in_second_${subscriptionId}`;
    const [failed, paid] = [`pi_failed_${subscriptionId}`, `pi_paid_${subscriptionId}`];
    const renewal = invoicePaid(subscriptionId, renewalId, {
      start: Math.floor(Date.UTC(2038, 0, 1) / 1000),
      end: Math.floor(Date.UTC(2038, 1, 1) / 1000),
    });
    const payment = (status: string, paymentIntent: string) => ({
      ...stripeFixture('invoice_payment'),
      invoice: renewalId,
      status,
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
    });
    (renewal.data as { object: Record<string, unknown> }).object.payments = {
      object: 'list',
      data: [payment('failed', failed), payment('paid', paid)],
      has_more: false,
      url: `/v1/invoice_payments?invoice=${renewalId}`,
    };
    await send(renewal);
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 800 });

    await send(chargeRefunded(failed, 4999, 4999));
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 800 });
    await send(chargeRefunded(paid, 4999, 4999));
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 0 });
  });

  it('refills credits for a period invoice that lists no line, and leaves its dates unknown until a subscription event names them', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    const first = { start: Math.floor(Date.UTC(2039, 0, 1) / 1000), end: Math.floor(Date.UTC(2039, 1, 1) / 1000) };
    await send(
      invoicePaid(
        subscriptionId,
        `in_first_${subscriptionId}`,
        first,
        { userId: user.id, plan: 'growth' },
        'subscription_create',
      ),
    );
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { endDate: '2039-02-01T00:00:00.000Z' } });
    await spend(user.id, 100);
    const renewal = invoicePaid(subscriptionId, `in_second_${subscriptionId}`, { start: 0, end: 0 });
    const invoice = (renewal.data as { object: { lines: Record<string, unknown> } }).object;
    invoice.lines = { ...invoice.lines, data: [] };
    await send(renewal);
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'active', endDate: null },
      subscriptionCredits: 800,
    });
    const end = Math.floor(Date.UTC(2039, 2, 1) / 1000);
    const item = {
      ...(stripeFixture('subscription') as { items: { data: Record<string, unknown>[] } }).items.data[0],
      current_period_start: end - 28 * 86_400,
      current_period_end: end,
    };
    await send(
      subscriptionEvent('customer.subscription.updated', subscriptionId, {
        items: { object: 'list', data: [item], has_more: false },
      }),
    );
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { endDate: '2039-03-01T00:00:00.000Z' } });
  });

  it('follows a subscription event that lists no item: its status changes, its plan and period stay', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    const before = await subscriptionOf(user);
    const itemless = subscriptionEvent('customer.subscription.updated', subscriptionId, {
      status: 'past_due',
      items: { object: 'list', data: [], has_more: false },
    });
    expect((await send(itemless)).json()).toEqual({ received: true, duplicate: false });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'growth', status: 'past_due', endDate: before.subscription?.endDate },
    });
  });

  it('takes back a whole pack when its charge is fully refunded, even if less than the charge was captured', async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    const refunded = chargeRefunded(paymentIntent, 600, 300);
    Object.assign((refunded.data as { object: Record<string, unknown> }).object, {
      amount_captured: 300,
      refunded: true,
    });
    await send(refunded);
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
  });

  it('applies the events of one subscription one at a time, without holding up another subscription', async () => {
    const [user, other] = [await newUser(), await newUser()];
    const [held, free] = [`sub_${randomBytes(6).toString('hex')}`, `sub_${randomBytes(6).toString('hex')}`];
    // The lock an event of `held` takes while it applies, held here as a concurrent delivery would.
    const lockKey = `stripe-subscription:${held}`;
    await testApp.deps.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(hashtext(${lockKey}))`.execute(connection);
      const waiting = send(subscriptionCheckout(user.id, held, `in_first_${held}`));
      expect((await send(subscriptionCheckout(other.id, free, `in_first_${free}`))).statusCode).toBe(200);
      const early = await Promise.race([
        waiting.then(() => 'answered'),
        new Promise((resolve) => setTimeout(resolve, 500, 'waiting')),
      ]);
      expect(early).toBe('waiting');
      expect((await subscriptionOf(user)).subscriptionCredits).toBe(0);
      await sql`select pg_advisory_unlock(hashtext(${lockKey}))`.execute(connection);
      expect((await waiting).statusCode).toBe(200);
    });
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { status: 'active' }, subscriptionCredits: 800 });
  });

  it('ends a subscription that Stripe reports canceled, or deletes whatever its status', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    await send(subscriptionEvent('customer.subscription.updated', subscriptionId, { status: 'canceled' }));
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: false },
      subscriptionCredits: 0,
    });

    // A pending subscription whose first payment never came is deleted as incomplete_expired.
    const pending = await newUser();
    const expiring = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(pending.id, expiring, `in_first_${expiring}`, { paymentStatus: 'unpaid' }));
    await send(subscriptionEvent('customer.subscription.deleted', expiring, { status: 'incomplete_expired' }));
    expect(await subscriptionOf(pending)).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: false },
      subscriptionCredits: 0,
    });
  });

  it('restores each won dispute, and the ledger says why credits went and came back', async () => {
    const user = await newUser();
    const [small, large, refunded] = [
      `pi_s_${randomBytes(6).toString('hex')}`,
      `pi_l_${randomBytes(6).toString('hex')}`,
      `pi_r_${randomBytes(6).toString('hex')}`,
    ];
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent: small }));
    await send(addOnCheckout(user.id, 'addon-500', { paymentIntent: large }));
    for (const paymentIntent of [small, large])
      await send(dispute('charge.dispute.funds_withdrawn', `dp_${paymentIntent}`, paymentIntent, 'needs_response'));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
    for (const paymentIntent of [small, large])
      await send(dispute('charge.dispute.closed', `dp_${paymentIntent}`, paymentIntent, 'won'));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 600 });
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent: refunded }));
    await send(chargeRefunded(refunded, 600, 600));
    const rows = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select(['kind', 'reason'])
      .where('user_id', '=', user.id)
      .where('kind', 'in', ['revoke', 'restore'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.kind, r.reason])).toEqual([
      ['revoke', 'payment disputed'],
      ['revoke', 'payment disputed'],
      ['restore', 'dispute won'],
      ['restore', 'dispute won'],
      ['revoke', 'payment refunded'],
    ]);
  });

  /** Queued work as the API opens it: a generation of `slots` slots holding one credit each. */
  async function openWork(userId: string, slots: number): Promise<string> {
    const styles = Array.from({ length: slots }, (_, index) => ({
      index,
      name: `Style ${index}`,
      prompt: null,
      backgroundType: 'studio',
    }));
    const { id } = await new GenerationsRepository(testApp.deps.db).create({
      userId,
      imageId: null,
      kind: 'manual',
      stage: null,
      request: {},
      slots: styles,
    });
    await new CreditsRepository(testApp.deps.db).reserve({
      userId,
      amount: slots,
      idempotencyKey: ledgerKeys.reserve(id),
      generationId: id,
    });
    return id;
  }

  /** A batch opened through the API: `photos` uploads, `count` template shots each. Answers its generations, in order. */
  async function openBatch(
    user: { headers: { authorization: string } },
    photos: number,
    count: number,
  ): Promise<string[]> {
    const items = [];
    for (let n = 0; n < photos; n += 1) {
      const body = multipartBody([
        { name: 'image', filename: 'mug.jpg', contentType: 'image/jpeg', data: await productPhoto(`#${n + 2}a6`) },
      ]);
      const uploaded = await testApp.app.inject({
        method: 'POST',
        url: '/api/images/upload',
        payload: body.payload,
        headers: { ...body.headers, ...user.headers },
      });
      items.push({ imageId: uploaded.json<{ _id: string }>()._id });
    }
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/api/batches',
      headers: user.headers,
      payload: { items, choice: { mode: 'template', backgroundType: 'studio', count } },
    });
    expect(opened.statusCode, opened.body).toBe(202);
    const batch = await testApp.app.inject({
      method: 'GET',
      url: `/api/batches/${opened.json<{ data: { batchId: string } }>().data.batchId}`,
      headers: user.headers,
    });
    return batch.json<{ data: { items: { generationId: string }[] } }>().data.items.map((item) => item.generationId);
  }

  /** The worker's two endings of a slot: its shot stored, or its failure for good. */
  const storeShot = (userId: string, generationId: string, index: number) =>
    settlement.settleSlot(
      { db: testApp.deps.db, repos: createRepositories(testApp.deps.db) },
      { userId, generationId, index },
      { resultKey: `outputs/${generationId}/${index}.png`, seed: 1 },
    );
  const failWork = (userId: string, generationId: string) =>
    settlement.failOpenSlots(
      { db: testApp.deps.db, repos: createRepositories(testApp.deps.db) },
      { userId, generationId },
      'The photo was deleted.',
    );

  async function debtOf(userId: string): Promise<number> {
    return (
      await testApp.deps.db
        .selectFrom('credit_balances')
        .select('debt_credits')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).debt_credits;
  }

  /** What each claw row took from which generation, oldest first. */
  async function clawed(userId: string): Promise<[string | null, number][]> {
    const rows = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select(['generation_id', 'addon_delta'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'claw')
      .orderBy('id')
      .execute();
    return rows.map((r) => [r.generation_id, r.addon_delta]);
  }

  it('takes a fully refunded pack back from the work it is reserved for, and that work failing gives nothing back', async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    const work = [
      await openWork(user.id, 25),
      await openWork(user.id, 25),
      await openWork(user.id, 25),
      await openWork(user.id, 25),
    ];
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });

    await send(chargeRefunded(paymentIntent, 600, 600));
    expect(await movements(user.id, ['revoke'])).toEqual([['revoke', 0, -100]]);
    expect(await clawed(user.id)).toEqual(work.toReversed().map((id) => [id, 25]));
    for (const generationId of work) expect(await failWork(user.id, generationId)).toMatchObject({ refunded: null });
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 0, addOnCredits: 0 });
    expect(await debtOf(user.id)).toBe(0);
  });

  it('takes a partial refund from the balance first, then from the newest held work; the rest of the work comes back when it fails', async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    const [older, newer] = [await openWork(user.id, 40), await openWork(user.id, 40)];

    await send(chargeRefunded(paymentIntent, 600, 300));
    expect(await movements(user.id, ['revoke'])).toEqual([['revoke', 0, -50]]);
    expect(await clawed(user.id)).toEqual([[newer, 30]]);
    expect(await failWork(user.id, newer)).toMatchObject({ refunded: { amount: 10, balance: { addOnCredits: 10 } } });
    expect(await failWork(user.id, older)).toMatchObject({ refunded: { amount: 40, balance: { addOnCredits: 50 } } });

    await send(chargeRefunded(paymentIntent, 600, 600));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
    expect(await movements(user.id, ['revoke'])).toEqual([
      ['revoke', 0, -50],
      ['revoke', 0, -50],
    ]);
  });

  it('lets a batch running through a lost dispute finish: its shots become debt, which the next plan period repays first', async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    const [stored, failed] = await openBatch(user, 2, 4);
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 92 });

    await send(dispute('charge.dispute.funds_withdrawn', `dp_${paymentIntent}`, paymentIntent, 'needs_response'));
    expect(await subscriptionOf(user)).toMatchObject({ addOnCredits: 0 });
    expect(await movements(user.id, ['revoke'])).toEqual([['revoke', 0, -100]]);
    for (const index of [0, 1, 2, 3]) expect(await storeShot(user.id, stored!, index)).toBe(true);
    expect(await failWork(user.id, failed!)).toEqual({ failed: [0, 1, 2, 3], refunded: null });
    await send(dispute('charge.dispute.closed', `dp_${paymentIntent}`, paymentIntent, 'lost'));
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 0, addOnCredits: 0 });
    expect(await debtOf(user.id)).toBe(4);

    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await send(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`));
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 796, addOnCredits: 0 });
    expect(await debtOf(user.id)).toBe(0);
  });

  it('gives back exactly what a dispute took once it is won, while its batch still runs', async () => {
    const user = await newUser();
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    await send(addOnCheckout(user.id, 'addon-100', { paymentIntent }));
    const [first, second] = await openBatch(user, 2, 4);
    await send(dispute('charge.dispute.funds_withdrawn', `dp_${paymentIntent}`, paymentIntent, 'needs_response'));
    for (const index of [0, 1, 2]) await storeShot(user.id, first!, index);
    await failWork(user.id, first!);
    expect(await debtOf(user.id)).toBe(3);

    await send(dispute('charge.dispute.closed', `dp_${paymentIntent}`, paymentIntent, 'won'));
    expect(await movements(user.id, ['revoke', 'restore'])).toEqual([
      ['revoke', 0, -100],
      ['restore', 0, 97],
    ]);
    expect(await debtOf(user.id)).toBe(0);
    // The batch ends as it would have without the dispute: 7 shots stored, 7 credits spent.
    for (const index of [0, 1, 2, 3]) await storeShot(user.id, second!, index);
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 0, addOnCredits: 93 });
  });
});
