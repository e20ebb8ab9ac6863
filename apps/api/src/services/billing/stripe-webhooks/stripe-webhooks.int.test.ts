import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { SubscriptionResponse } from '@prodshot/contracts';
import {
  createRepositories,
  CreditsRepository,
  GenerationsRepository,
  ledgerKeys,
  settlement,
  type LedgerKind,
} from '@prodshot/db';
import { startStripeFake, stripeFixture, type StripeFake } from '@prodshot/testing';
import { HttpError } from '../../http-error.js';
import type { ServiceDeps } from '../../services.js';
import { buildTestServices, type TestServices } from '../../service-deps.test-support.js';
import {
  addOnCheckout,
  chargeRefunded,
  dispute,
  event,
  invoicePaid,
  invoicePaymentPaid,
  subscriptionCheckout,
  subscriptionEvent,
} from './stripe-events.test-support.js';
import type { StripeWebhooks, WebhookResult } from './stripe-webhooks.js';

const stack = inject('stack');

/**
 * What each Stripe event does to a seller's subscription, credits and ledger, applied as the webhook
 * route applies it once the signature holds. The route's own answers (status, signature, schema,
 * the operator's log line) are routes/webhooks/stripe.int.test.ts.
 */
describe('Stripe webhooks against a local Stripe fake', () => {
  let fake: StripeFake;
  let testServices: TestServices;
  let deps: ServiceDeps;
  let webhooks: StripeWebhooks;

  beforeAll(async () => {
    fake = await startStripeFake();
    testServices = await buildTestServices(stack, {
      STRIPE_SECRET_KEY: 'sk_test_prodshot_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_prodshot_test_secret',
      STRIPE_API_BASE: fake.url,
    });
    deps = testServices.deps;
    webhooks = testServices.services.stripeWebhooks!;
  });
  afterAll(async () => {
    await testServices?.close();
    await fake?.close();
  });

  async function newUser(): Promise<{ id: string }> {
    return { id: await testServices.newUser(0) };
  }

  function subscriptionOf(user: { id: string }): Promise<SubscriptionResponse> {
    return testServices.services.billing.subscription(user.id);
  }

  /** The event as the route hands it over: parsed from the signed body, as Stripe's library does. */
  function deliver(payload: string): Promise<WebhookResult> {
    return webhooks.apply(JSON.parse(payload) as Stripe.Event);
  }

  function send(payload: Record<string, unknown>): Promise<WebhookResult> {
    return deliver(JSON.stringify(payload));
  }

  function refusedForGood(error: unknown): boolean {
    return error instanceof HttpError && error.statusCode < 500;
  }

  /** Credits spent on stored shots: reserved by a generation that settled each one. */
  async function spend(userId: string, amount: number): Promise<void> {
    const generation = await deps.db
      .insertInto('generations')
      .values({ user_id: userId, image_id: null, kind: 'manual', stage: null, error: null, request: {} })
      .returning('id')
      .executeTakeFirstOrThrow();
    const credits = new CreditsRepository(deps.db);
    await credits.reserve({ userId, amount, idempotencyKey: `spend:${generation.id}`, generationId: generation.id });
    for (let index = 0; index < amount; index += 1)
      await credits.settle({ userId, generationId: generation.id, idempotencyKey: `spent:${generation.id}:${index}` });
  }

  /** The user's ledger rows of these kinds, oldest first: [kind, subscription delta, add-on delta]. */
  async function movements(userId: string, kinds: LedgerKind[]): Promise<[LedgerKind, number, number][]> {
    const rows = await deps.db
      .selectFrom('credit_ledger')
      .select(['kind', 'subscription_delta', 'addon_delta'])
      .where('user_id', '=', userId)
      .where('kind', 'in', kinds)
      .orderBy('id')
      .execute();
    return rows.map((r) => [r.kind, r.subscription_delta, r.addon_delta]);
  }

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

  /** Queued work as the API opens it: a generation of `slots` slots holding one credit each. */
  async function openWork(userId: string, slots: number): Promise<string> {
    const styles = Array.from({ length: slots }, (_, index) => ({
      index,
      name: `Style ${index}`,
      prompt: null,
      backgroundType: 'studio',
    }));
    const { id } = await new GenerationsRepository(deps.db).create({
      userId,
      imageId: null,
      kind: 'manual',
      stage: null,
      request: {},
      slots: styles,
    });
    await new CreditsRepository(deps.db).reserve({
      userId,
      amount: slots,
      idempotencyKey: ledgerKeys.reserve(id),
      generationId: id,
    });
    return id;
  }

  /** The worker failing the rest of a generation for good. */
  const failWork = (userId: string, generationId: string) =>
    settlement.failOpenSlots(
      { db: deps.db, repos: createRepositories(deps.db) },
      { userId, generationId },
      'The photo was deleted.',
    );

  async function debtOf(userId: string): Promise<number> {
    return (
      await deps.db
        .selectFrom('credit_balances')
        .select('debt_credits')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).debt_credits;
  }

  /** What each claw row took from which generation, oldest first. */
  async function clawed(userId: string): Promise<[string | null, number][]> {
    const rows = await deps.db
      .selectFrom('credit_ledger')
      .select(['generation_id', 'addon_delta'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'claw')
      .orderBy('id')
      .execute();
    return rows.map((r) => [r.generation_id, r.addon_delta]);
  }

  it('grants nothing twice for a replayed event', async () => {
    const user = await newUser();
    const payload = JSON.stringify(addOnCheckout(user.id));
    expect((await deliver(payload)).duplicate).toBe(false);
    expect((await deliver(payload)).duplicate).toBe(true);
    expect((await subscriptionOf(user)).addOnCredits).toBe(100);
    const claimed = await deps.db
      .selectFrom('processed_webhook_events')
      .select(['provider', 'type'])
      .where('event_id', '=', JSON.parse(payload).id)
      .execute();
    expect(claimed).toEqual([{ provider: 'stripe', type: 'checkout.session.completed' }]);
  });

  it('grants once when two deliveries of one event arrive together', async () => {
    const user = await newUser();
    const payload = JSON.stringify(addOnCheckout(user.id, 'addon-500'));
    const outcomes = await Promise.allSettled([deliver(payload), deliver(payload), deliver(payload)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const results = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(results.filter((result) => result.duplicate === false)).toHaveLength(1);
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
    expect((await deliver(renewal)).duplicate).toBe(false);
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
    const outcomes = await Promise.allSettled(deliveries.map((payload) => deliver(payload)));
    // What the route would answer 4xx to is an HttpError below 500; anything else thrown is a 5xx
    // that Stripe delivers again.
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled' || !refusedForGood(outcome.reason))).toBe(true);
    // Stripe redelivers what was not acknowledged; a second round settles anything refused.
    await Promise.all(events.map((payload) => deliver(payload)));

    const grants = await deps.db
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
      ).duplicate,
    ).toBe(false);
    expect(fake.refundsOf(secondPayment)).toHaveLength(1);
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'active' },
      subscriptionCredits: 800,
      cancelledSecondSubscription: { refunded: true },
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
    expect((await send(invoicePaid(subscriptionId, `in_late_${subscriptionId}`, older))).duplicate).toBe(false);
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
      (await send(dispute('charge.dispute.closed', `dp_${paymentIntent}`, paymentIntent, 'prevented'))).duplicate,
    ).toBe(false);
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
    for (const session of sessions) expect((await send(session)).duplicate).toBe(false);
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
    expect((await send(checkoutSession(free))).duplicate).toBe(false);
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
    for (const paid of invoices) expect((await send(paid)).duplicate).toBe(false);
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
    expect((await send(bare)).duplicate).toBe(false);
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
    for (const delivered of events) expect((await send(delivered)).duplicate).toBe(false);
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
    expect((await send(itemless)).duplicate).toBe(false);
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
    await deps.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(hashtext(${lockKey}))`.execute(connection);
      const waiting = send(subscriptionCheckout(user.id, held, `in_first_${held}`));
      expect((await send(subscriptionCheckout(other.id, free, `in_first_${free}`))).duplicate).toBe(false);
      const early = await Promise.race([
        waiting.then(() => 'answered'),
        new Promise((resolve) => setTimeout(resolve, 500, 'waiting')),
      ]);
      expect(early).toBe('waiting');
      expect((await subscriptionOf(user)).subscriptionCredits).toBe(0);
      await sql`select pg_advisory_unlock(hashtext(${lockKey}))`.execute(connection);
      expect((await waiting).duplicate).toBe(false);
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
    const rows = await deps.db
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
});
