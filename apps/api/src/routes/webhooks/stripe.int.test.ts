import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { SubscriptionResponse } from '@prodshot/contracts';
import { CreditsRepository } from '@prodshot/db';
import {
  mintSessionToken,
  startStripeFake,
  stripeFixture,
  stripeFixturesAvailable,
  testClerkId,
  VENDOR_FIXTURES_DIR,
  type StripeFake,
} from '@prodshot/testing';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const WEBHOOK_SECRET = 'whsec_prodshot_test_secret';
const SECRET_KEY = 'sk_test_prodshot_fake';
const signer = new Stripe(SECRET_KEY);

describe.skipIf(!stripeFixturesAvailable())(`Stripe provider against a local fake built from ${VENDOR_FIXTURES_DIR}`, () => {
  let fake: StripeFake;
  let testApp: TestApp;

  beforeAll(async () => {
    fake = await startStripeFake();
    testApp = await buildTestApp(stack, { env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url } });
  });
  afterAll(async () => {
    await testApp?.close();
    await fake?.close();
  });

  async function newUser(): Promise<{ id: string; headers: { authorization: string } }> {
    const headers = { authorization: `Bearer ${await mintSessionToken({ clerkId: testClerkId(), claims: { email: 'payer@example.com' } })}` };
    const response = await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers });
    return { id: response.json<{ id: string }>().id, headers };
  }

  async function subscriptionOf(user: { headers: { authorization: string } }): Promise<SubscriptionResponse> {
    return (await testApp.app.inject({ method: 'GET', url: '/api/users/subscription', headers: user.headers })).json<SubscriptionResponse>();
  }

  function event(type: string, object: Record<string, unknown>): Record<string, unknown> {
    return { ...stripeFixture('event'), id: `evt_${randomBytes(10).toString('hex')}`, type, data: { object } };
  }

  function deliver(payload: string, signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })) {
    return testApp.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      payload,
    });
  }

  function subscriptionCheckout(userId: string, subscriptionId: string, invoiceId: string) {
    return event('checkout.session.completed', {
      ...stripeFixture('checkout.session'),
      id: `cs_test_${randomBytes(6).toString('hex')}`,
      mode: 'subscription',
      payment_status: 'paid',
      status: 'complete',
      customer: `cus_${userId.slice(0, 8)}`,
      subscription: subscriptionId,
      invoice: invoiceId,
      client_reference_id: userId,
      metadata: { userId, kind: 'subscription', plan: 'growth' },
    });
  }

  function addOnCheckout(userId: string, pack = 'addon-100') {
    return event('checkout.session.completed', {
      ...stripeFixture('checkout.session'),
      id: `cs_test_${randomBytes(6).toString('hex')}`,
      mode: 'payment',
      payment_status: 'paid',
      status: 'complete',
      metadata: { userId, kind: 'addon', plan: pack },
    });
  }

  function invoicePaid(subscriptionId: string, invoiceId: string, period: { start: number; end: number }, metadata: Record<string, string> = {}) {
    const invoice = stripeFixture('invoice') as { lines: { data: Record<string, unknown>[] } } & Record<string, unknown>;
    const line = invoice.lines.data[0]!;
    return event('invoice.paid', {
      ...invoice,
      id: invoiceId,
      status: 'paid',
      billing_reason: 'subscription_cycle',
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscriptionId, metadata } },
      lines: { ...invoice.lines, data: [{ ...line, period, parent: { type: 'subscription_item_details', subscription_item_details: { subscription: subscriptionId } } }] },
    });
  }

  it('creates a Checkout session for a plan with the spec return URL and answers its payment_link', async () => {
    const user = await newUser();
    const response = await testApp.app.inject({ method: 'POST', url: '/api/payments/subscription', headers: user.headers, payload: { planKey: 'growth' } });
    expect(response.statusCode).toBe(200);
    const link = response.json<{ payment_link: string }>().payment_link;
    expect(link).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', authorization: `Bearer ${SECRET_KEY}` });
    expect(sent.body).toMatchObject({
      mode: 'subscription',
      success_url: 'http://127.0.0.1:3000/dashboard?subscription_status=success&plan=growth',
      customer_email: 'payer@example.com',
      metadata: { userId: user.id, kind: 'subscription', plan: 'growth' },
      subscription_data: { metadata: { userId: user.id, plan: 'growth' } },
      line_items: { 0: { quantity: '1', price_data: { currency: 'usd', unit_amount: '4999', recurring: { interval: 'month' } } } },
    });
  });

  it('creates a Checkout payment for an add-on pack at 6 cents an image', async () => {
    const user = await newUser();
    const response = await testApp.app.inject({ method: 'POST', url: '/api/payments/credits', headers: user.headers, payload: { planKey: 'addon-500' } });
    expect(response.json<{ payment_link: string }>().payment_link).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(fake.requests.at(-1)!.body).toMatchObject({
      mode: 'payment',
      success_url: 'http://127.0.0.1:3000/dashboard?addon_status=success&plan=addon-500',
      line_items: { 0: { price_data: { unit_amount: '3000' } } },
    });
  });

  it('activates the plan on checkout.session.completed and opens the Billing Portal for its customer', async () => {
    const user = await newUser();
    expect((await deliver(JSON.stringify(subscriptionCheckout(user.id, `sub_${user.id.slice(0, 8)}`, `in_${user.id.slice(0, 8)}`)))).statusCode).toBe(200);
    const after = await subscriptionOf(user);
    expect(after).toMatchObject({ subscription: { plan: 'growth', status: 'active' }, subscriptionCredits: 800, addOnCredits: 0 });

    const again = await testApp.app.inject({ method: 'POST', url: '/api/payments/subscription', headers: user.headers, payload: { planKey: 'growth' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have an active subscription to the Growth plan.');

    const portal = await testApp.app.inject({ method: 'POST', url: '/api/payments/portal-session', headers: user.headers });
    expect(portal.json<{ data: { url: string } }>().data.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/billing_portal/sessions', body: { customer: `cus_${user.id.slice(0, 8)}`, return_url: 'http://127.0.0.1:3000/profile' } });
  });

  it('grants nothing twice for a replayed event', async () => {
    const user = await newUser();
    const payload = JSON.stringify(addOnCheckout(user.id));
    expect((await deliver(payload)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(payload)).json()).toEqual({ received: true, duplicate: true });
    expect((await subscriptionOf(user)).addOnCredits).toBe(100);
  });

  it('answers 400 to a bad signature and changes nothing', async () => {
    const user = await newUser();
    const delivered = addOnCheckout(user.id);
    const payload = JSON.stringify(delivered);
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const response = await deliver(payload, forged);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'invalid_signature' });
    const tampered = await deliver(payload.replace('addon-100', 'addon-1000'), signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    expect(tampered.statusCode).toBe(400);
    expect((await subscriptionOf(user)).addOnCredits).toBe(0);
    const recorded = await testApp.deps.db.selectFrom('processed_webhook_events').select('event_id').where('event_id', '=', delivered.id as string).execute();
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
    const generation = await testApp.deps.db
      .insertInto('generations')
      .values({ user_id: user.id, image_id: null, kind: 'manual', stage: null, error: null, request: {} })
      .returning('id')
      .executeTakeFirstOrThrow();
    await new CreditsRepository(testApp.deps.db).reserve({ userId: user.id, amount: 300, idempotencyKey: `spend:${generation.id}`, generationId: generation.id });
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 500, addOnCredits: 100 });

    const start = Math.floor(Date.UTC(2031, 0, 1) / 1000);
    const end = Math.floor(Date.UTC(2031, 1, 1) / 1000);
    const renewal = JSON.stringify(invoicePaid(subscriptionId, `in_second_${subscriptionId}`, { start, end }));
    expect((await deliver(renewal)).statusCode).toBe(200);
    const after = await subscriptionOf(user);
    expect(after).toMatchObject({ subscriptionCredits: 800, addOnCredits: 100 });
    expect(after.subscription).toMatchObject({ plan: 'growth', status: 'active', startDate: '2031-01-01T00:00:00.000Z', endDate: '2031-02-01T00:00:00.000Z' });
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
      invoicePaid(subscriptionId, firstInvoice, period1, metadata),
      invoicePaid(subscriptionId, `in_second_${subscriptionId}`, period2, metadata),
      addOnCheckout(user.id),
    ].map((e) => JSON.stringify(e));
    // Latest first, each twice, all at once.
    const deliveries = [...events].reverse().flatMap((payload) => [payload, payload]);
    const responses = await Promise.all(deliveries.map((payload) => deliver(payload)));
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode >= 500)).toBe(true);
    // Stripe redelivers what was not acknowledged; a second round settles anything refused.
    await Promise.all(events.map((payload) => deliver(payload)));

    const grants = await testApp.deps.db.selectFrom('credit_ledger').select(['kind', 'idempotency_key']).where('user_id', '=', user.id).execute();
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
    const change = await testApp.app.inject({ method: 'POST', url: '/api/payments/subscription', headers: user.headers, payload: { planKey: 'pro' } });
    expect(change.json()).toEqual({ payment_link: null });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v1/subscriptions/${subscriptionId}`,
      body: { proration_behavior: 'none', items: { 0: { price_data: { unit_amount: '9999' } } }, metadata: { plan: 'pro' } },
    });
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { plan: 'growth', pendingPlan: 'pro' }, subscriptionCredits: 800 });

    await deliver(JSON.stringify(invoicePaid(subscriptionId, `in_next_${subscriptionId}`, { start: 1_900_000_000, end: 1_902_592_000 })));
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { plan: 'pro', pendingPlan: null }, subscriptionCredits: 1700 });
  });

  it('cancels at period end through Stripe and follows subscription updated/deleted events', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomBytes(6).toString('hex')}`;
    await deliver(JSON.stringify(subscriptionCheckout(user.id, subscriptionId, `in_first_${subscriptionId}`)));
    const cancel = await testApp.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: user.headers });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data).toMatchObject({ message: 'Your subscription has been successfully canceled.', subscription: { status: 'canceled', cancelAtPeriodEnd: true } });
    expect(fake.requests.at(-1)).toMatchObject({ path: `/v1/subscriptions/${subscriptionId}`, body: { cancel_at_period_end: 'true' } });
    expect((await subscriptionOf(user)).subscriptionCredits).toBe(800);

    const subscription = { ...stripeFixture('subscription'), id: subscriptionId, status: 'past_due', cancel_at: null, cancel_at_period_end: false };
    await deliver(JSON.stringify(event('customer.subscription.updated', subscription)));
    expect((await subscriptionOf(user)).subscription.status).toBe('past_due');
    await deliver(JSON.stringify(event('customer.subscription.deleted', { ...subscription, status: 'canceled' })));
    expect((await subscriptionOf(user)).subscription.status).toBe('canceled');
  });
});
