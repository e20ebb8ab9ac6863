import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { shotSizeFor, type SubscriptionResponse } from '@prodshot/contracts';
import { createRepositories, CreditsRepository, settlement, type LedgerKind } from '@prodshot/db';
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
import {
  addOnCheckout,
  dispute,
  event,
  invoicePaid,
  subscriptionCheckout,
  subscriptionEvent,
} from '../../services/billing/stripe-webhooks/stripe-events.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const WEBHOOK_SECRET = 'whsec_prodshot_test_secret';
const SECRET_KEY = 'sk_test_prodshot_fake';
const signer = new Stripe(SECRET_KEY);

/**
 * The Stripe routes over HTTP: Checkout and the Billing Portal through the payments routes, and the
 * webhook's own answers (signature, 503 for an event too early, the operator's log line and metric).
 * What each event does to subscriptions, credits and the ledger is the webhook service's medium test,
 * services/billing/stripe-webhooks/stripe-webhooks.int.test.ts.
 */
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
