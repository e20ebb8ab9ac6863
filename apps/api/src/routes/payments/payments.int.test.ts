import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  planAllowance,
  shotSizeFor,
  type AddOnPlansResponse,
  type PlansResponse,
  type SubscriptionResponse,
} from '@prodshot/contracts';
import { mintSessionToken, testClerkId } from '@prodshot/testing';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
});
afterAll(() => testApp.close());

async function newUser(): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await mintSessionToken({ clerkId: testClerkId() })}` };
}

function post(url: string, headers: Record<string, string>, payload?: object) {
  return testApp.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
}

async function subscriptionOf(headers: Record<string, string>): Promise<SubscriptionResponse> {
  return (
    await testApp.app.inject({ method: 'GET', url: '/api/users/subscription', headers })
  ).json<SubscriptionResponse>();
}

describe('plans', () => {
  it('serves the plans and add-on packs to anyone', async () => {
    const plans = (await testApp.app.inject({ method: 'GET', url: '/api/payments/plans' })).json<PlansResponse>();
    expect(plans.data.map((p) => [p.id, p.priceCents, p.monthlyCredits])).toEqual([
      ['starter', 1499, 250],
      ['growth', 4999, 800],
      ['pro', 9999, 1700],
    ]);
    const packs = (
      await testApp.app.inject({ method: 'GET', url: '/api/payments/addon-plans' })
    ).json<AddOnPlansResponse>();
    expect(packs.data.map((p) => p.priceCents)).toEqual([600, 3000, 6000]);
  });
});

describe('local payments provider', () => {
  it('starts a new user at plan none with 0 credits', async () => {
    expect(await subscriptionOf(await newUser())).toEqual({
      subscription: {
        plan: 'none',
        status: 'none',
        startDate: null,
        endDate: null,
        pendingPlan: null,
        cancelAtPeriodEnd: false,
      },
      subscriptionCredits: 0,
      addOnCredits: 0,
      cancelledSecondSubscription: null,
      currentPlan: 'none',
      isActive: false,
      effectivePlan: 'none',
    });
  });

  it('starts one plan of several bought at once (two tabs), as Stripe would: the others become what they would be after it', async () => {
    const user = await newUser();
    const buy = (key: string, planKey: string) =>
      post('/api/payments/subscription', { ...user, 'idempotency-key': key }, { planKey });
    const responses = await Promise.all([
      buy('tab-1', 'growth'),
      buy('tab-2', 'growth'),
      buy('tab-3', 'pro'),
      buy('tab-4', 'pro'),
    ]);
    // The plan already held (409), or a change for the next cycle.
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    const { id } = (await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers: user })).json<{
      id: string;
    }>();
    const started = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select('subscription_delta')
      .where('user_id', '=', id)
      .where('kind', '=', 'reset_subscription')
      .execute();
    expect(started).toHaveLength(1);
    const after = await subscriptionOf(user);
    expect(after.subscriptionCredits).toBe(planAllowance(after.subscription.plan));
  });

  it('grants Growth at once without a payment link, then an add-on pack, then cancels', async () => {
    const user = await newUser();
    expect(
      (
        await post('/api/payments/subscription', user, { planKey: 'growth', return_url: 'https://elsewhere.example' })
      ).json(),
    ).toEqual({ payment_link: null });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'growth', status: 'active' },
      subscriptionCredits: 800,
      addOnCredits: 0,
      isActive: true,
    });

    expect((await post('/api/payments/credits', user, { planKey: 'addon-100' })).json()).toEqual({
      payment_link: null,
    });
    expect(await subscriptionOf(user)).toMatchObject({ subscriptionCredits: 800, addOnCredits: 100 });

    const again = await post('/api/payments/subscription', user, { planKey: 'growth' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have an active subscription to the Growth plan.');

    const cancel = await post('/api/payments/cancel-subscription', user);
    expect(cancel.json().data.subscription).toMatchObject({
      plan: 'growth',
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'canceled' },
      subscriptionCredits: 800,
      addOnCredits: 100,
    });
  });

  it('grants an add-on pack once for a repeated Idempotency-Key', async () => {
    const user = await newUser();
    const headers = { ...user, 'idempotency-key': 'double-click-1' };
    await post('/api/payments/credits', headers, { planKey: 'addon-500' });
    await post('/api/payments/credits', headers, { planKey: 'addon-500' });
    expect((await subscriptionOf(user)).addOnCredits).toBe(500);
  });

  it('refuses an unusable Idempotency-Key as every call does, and neither grants nor subscribes', async () => {
    const user = await newUser();
    const tooLong = 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1);
    for (const [url, planKey] of [
      ['/api/payments/credits', 'addon-500'],
      ['/api/payments/subscription', 'starter'],
    ] as const) {
      const refused = await post(url, { ...user, 'idempotency-key': tooLong }, { planKey });
      expect([refused.statusCode, refused.json().code]).toEqual([400, 'invalid_idempotency_key']);
    }
    expect(await subscriptionOf(user)).toMatchObject({ subscription: { plan: 'none' }, addOnCredits: 0 });
  });

  it('keeps a plan change for the next cycle', async () => {
    const user = await newUser();
    await post('/api/payments/subscription', user, { planKey: 'starter' });
    expect((await post('/api/payments/subscription', user, { planKey: 'pro' })).json()).toEqual({ payment_link: null });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'starter', pendingPlan: 'pro' },
      subscriptionCredits: 250,
    });
  });

  it('rolls an elapsed local period once: the pending plan takes over with its allowance, no rollover', async () => {
    const user = await newUser();
    await post('/api/payments/subscription', user, { planKey: 'starter' });
    await post('/api/payments/credits', user, { planKey: 'addon-100' });
    await post('/api/payments/subscription', user, { planKey: 'growth' });
    const { id: userId } = (
      await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers: user })
    ).json<{ id: string }>();
    const ended = new Date(Date.now() - 24 * 3600 * 1000);
    await testApp.deps.db
      .updateTable('subscriptions')
      .set({ current_period_end: ended })
      .where('user_id', '=', userId)
      .execute();

    const [first, second] = [await subscriptionOf(user), await subscriptionOf(user)];
    expect(first).toMatchObject({
      subscription: { plan: 'growth', pendingPlan: null, status: 'active', startDate: ended.toISOString() },
      subscriptionCredits: 800,
      addOnCredits: 100,
    });
    expect(second).toEqual(first);
    const resets = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select('id')
      .where('user_id', '=', userId)
      .where('kind', '=', 'reset_subscription')
      .execute();
    expect(resets).toHaveLength(2);
  });

  it("keeps a cancelled plan's quality and credits until its period ends, then subscription credits go to 0 and add-on credits stay", async () => {
    const user = await newUser();
    const { id: userId } = (
      await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers: user })
    ).json<{ id: string }>();
    const generations = testApp.app.services.lookups;
    await post('/api/payments/subscription', user, { planKey: 'growth' });
    await post('/api/payments/credits', user, { planKey: 'addon-100' });
    await post('/api/payments/cancel-subscription', user);
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: true },
      subscriptionCredits: 800,
      addOnCredits: 100,
    });
    expect(shotSizeFor(await generations.effectivePlan(userId))).toBe(4096);

    const ended = new Date(Date.now() - 1000);
    await testApp.deps.db
      .updateTable('subscriptions')
      .set({ current_period_end: ended })
      .where('user_id', '=', userId)
      .execute();
    expect(shotSizeFor(await generations.effectivePlan(userId))).toBe(1024);
    const [first, second] = [await subscriptionOf(user), await subscriptionOf(user)];
    expect(first).toMatchObject({
      subscription: { plan: 'growth', status: 'canceled', cancelAtPeriodEnd: false },
      subscriptionCredits: 0,
      addOnCredits: 100,
      isActive: false,
    });
    expect(second).toEqual(first);
    const expiries = await testApp.deps.db
      .selectFrom('credit_ledger')
      .select('subscription_delta')
      .where('user_id', '=', userId)
      .where('kind', '=', 'expire_subscription')
      .execute();
    expect(expiries).toEqual([{ subscription_delta: -800 }]);

    // The plan can be bought again, from now.
    await post('/api/payments/subscription', user, { planKey: 'starter' });
    expect(await subscriptionOf(user)).toMatchObject({
      subscription: { plan: 'starter', status: 'active' },
      subscriptionCredits: 250,
      addOnCredits: 100,
    });
  });

  it("answers 'No active subscription found' when there is nothing to cancel", async () => {
    const response = await post('/api/payments/cancel-subscription', await newUser());
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('No active subscription found');
  });

  it('refuses unknown plans and add-on packs', async () => {
    const user = await newUser();
    expect((await post('/api/payments/subscription', user, { planKey: 'platinum' })).statusCode).toBe(400);
    expect((await post('/api/payments/credits', user, { planKey: 'addon-7' })).statusCode).toBe(400);
  });

  it("never shows one user another's purchase", async () => {
    const buyer = await newUser();
    await post('/api/payments/subscription', buyer, { planKey: 'pro' });
    const other = await newUser();
    expect(await subscriptionOf(other)).toMatchObject({ subscription: { plan: 'none' }, subscriptionCredits: 0 });
    expect((await post('/api/payments/cancel-subscription', other)).statusCode).toBe(404);
    expect((await subscriptionOf(buyer)).subscription.status).toBe('active');
  });

  it('needs a signed-in user for every purchase call', async () => {
    for (const url of [
      '/api/payments/subscription',
      '/api/payments/credits',
      '/api/payments/portal-session',
      '/api/payments/cancel-subscription',
    ]) {
      expect((await post(url, {}, { planKey: 'growth' })).statusCode).toBe(401);
    }
  });

  it('has no Stripe webhook route without Stripe', async () => {
    expect((await post('/api/webhooks/stripe', { 'content-type': 'application/json' }, {})).statusCode).toBe(404);
  });
});
