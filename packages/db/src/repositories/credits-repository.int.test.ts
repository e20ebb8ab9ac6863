import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@prodshot/testing';
import { CreditsRepository, InsufficientCreditsError } from './credits-repository.js';

const stack = inject('stack');
let test: TestDatabase;
let credits: CreditsRepository;

beforeAll(async () => {
  test = await createTestDatabase(stack);
  credits = new CreditsRepository(test.db);
});
afterAll(() => test.drop());

let counter = 0;
async function newUser(): Promise<string> {
  counter += 1;
  const row = await test.db.insertInto('users').values({ clerk_id: `user_${counter}`, email: `u${counter}@example.com` }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

async function newGeneration(userId: string): Promise<string> {
  const row = await test.db.insertInto('generations').values({ user_id: userId, image_id: null, kind: 'smart', stage: null, error: null, request: {} }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

async function seed(userId: string, subscription: number, addOn: number): Promise<void> {
  if (subscription) await credits.resetSubscription({ userId, amount: subscription, idempotencyKey: `seed-sub-${userId}` });
  if (addOn) await credits.grantAddOn({ userId, amount: addOn, idempotencyKey: `seed-addon-${userId}` });
}

describe('CreditsRepository', () => {
  it('starts a new user at zero', async () => {
    expect(await credits.balance(await newUser())).toEqual({ subscriptionCredits: 0, addOnCredits: 0 });
  });

  it('spends subscription credits first, then add-on credits', async () => {
    const userId = await newUser();
    await seed(userId, 2, 5);
    const { balance } = await credits.reserve({ userId, amount: 4, idempotencyKey: 'r1', generationId: await newGeneration(userId) });
    expect(balance).toEqual({ subscriptionCredits: 0, addOnCredits: 3 });
  });

  it('refuses a reservation larger than the balance and moves nothing', async () => {
    const userId = await newUser();
    await seed(userId, 1, 1);
    await expect(credits.reserve({ userId, amount: 3, idempotencyKey: 'r-too-much', generationId: await newGeneration(userId) })).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 1, addOnCredits: 1 });
  });

  it('charges once for a repeated idempotency key', async () => {
    const userId = await newUser();
    await seed(userId, 10, 0);
    const generationId = await newGeneration(userId);
    const first = await credits.reserve({ userId, amount: 2, idempotencyKey: `reserve:${generationId}`, generationId });
    const again = await credits.reserve({ userId, amount: 2, idempotencyKey: `reserve:${generationId}`, generationId });
    expect(first.applied).toBe(true);
    expect(again.applied).toBe(false);
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 8, addOnCredits: 0 });
  });

  it('answers a replayed reservation as made, not as a shortfall, once it used the last credits', async () => {
    const userId = await newUser();
    await seed(userId, 0, 3);
    const generationId = await newGeneration(userId);
    const input = { userId, amount: 3, idempotencyKey: `reserve:${generationId}`, generationId };
    expect((await credits.reserve(input)).applied).toBe(true);
    expect(await credits.reserve(input)).toEqual({ applied: false, moved: 0, balance: { subscriptionCredits: 0, addOnCredits: 0 } });
  });

  it('charges once for ten concurrent replays of one reservation', async () => {
    const userId = await newUser();
    await seed(userId, 2, 1);
    const generationId = await newGeneration(userId);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => credits.reserve({ userId, amount: 2, idempotencyKey: `replayed:${generationId}`, generationId })),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 1 });
  });

  it('refuses a user who never had credits and writes no ledger row', async () => {
    const userId = await newUser();
    const generationId = await newGeneration(userId);
    await expect(credits.reserve({ userId, amount: 1, idempotencyKey: `reserve:${generationId}`, generationId })).rejects.toMatchObject({ needed: 1, available: 0 });
    expect(await test.db.selectFrom('credit_ledger').select('id').where('user_id', '=', userId).execute()).toEqual([]);
  });

  it('lets exactly as many of 100 concurrent reservations through as there are credits', async () => {
    const userId = await newUser();
    await seed(userId, 6, 4);
    const generations = await Promise.all(Array.from({ length: 100 }, () => newGeneration(userId)));
    const results = await Promise.allSettled(
      generations.map((generationId) => credits.reserve({ userId, amount: 1, idempotencyKey: `race:${generationId}`, generationId })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof InsufficientCreditsError)).toHaveLength(90);
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 0 });
  });

  // Ten rounds, as a lost update shows only in some interleavings.
  it('keeps the balance equal to the ledger under concurrent reservations, grants and resets', async () => {
    for (let round = 0; round < 10; round += 1) {
      const userId = await newUser();
      await seed(userId, 5, 0);
      const generations = await Promise.all(Array.from({ length: 40 }, () => newGeneration(userId)));
      const results = await Promise.allSettled([
        ...generations.map((generationId) => credits.reserve({ userId, amount: 1, idempotencyKey: `mixed:${generationId}`, generationId })),
        ...Array.from({ length: 10 }, (_, n) => credits.grantAddOn({ userId, amount: 2, idempotencyKey: `mixed-grant:${userId}:${n}` })),
        ...Array.from({ length: 5 }, (_, n) => credits.resetSubscription({ userId, amount: 3, idempotencyKey: `mixed-reset:${userId}:${n}` })),
      ]);
      expect(results.filter((r) => r.status === 'rejected' && !(r.reason instanceof InsufficientCreditsError))).toEqual([]);
      const ledger = await test.db
        .selectFrom('credit_ledger')
        .select((eb) => [eb.fn.sum<string>('subscription_delta').as('subscription'), eb.fn.sum<string>('addon_delta').as('addon')])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      expect(await credits.balance(userId)).toEqual({ subscriptionCredits: Number(ledger.subscription), addOnCredits: Number(ledger.addon) });
    }
  });

  it('refunds add-on credits first and never more than was reserved', async () => {
    const userId = await newUser();
    await seed(userId, 1, 2);
    const generationId = await newGeneration(userId);
    await credits.reserve({ userId, amount: 3, idempotencyKey: `reserve:${generationId}`, generationId });
    await credits.refund({ userId, amount: 1, idempotencyKey: `refund:${generationId}:0`, generationId });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 1 });
    await credits.refund({ userId, amount: 1, idempotencyKey: `refund:${generationId}:0`, generationId });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 1 });
    await credits.refund({ userId, amount: 5, idempotencyKey: `refund:${generationId}:all`, generationId });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 1, addOnCredits: 2 });
  });

  it('never refunds the credit of an output that was stored', async () => {
    const userId = await newUser();
    await seed(userId, 0, 3);
    const generationId = await newGeneration(userId);
    await credits.reserve({ userId, amount: 3, idempotencyKey: `reserve:${generationId}`, generationId });
    await credits.settle({ userId, generationId, idempotencyKey: `settle:${generationId}:0` });
    await credits.settle({ userId, generationId, idempotencyKey: `settle:${generationId}:1` });
    await credits.refund({ userId, amount: 1_000, idempotencyKey: `refund:${generationId}:sweep`, generationId });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 1 });
  });

  it('writes no ledger row for a refund of nothing, and reports the credits that moved', async () => {
    const userId = await newUser();
    await seed(userId, 0, 2);
    const generationId = await newGeneration(userId);
    await credits.reserve({ userId, amount: 2, idempotencyKey: `reserve:${generationId}`, generationId });
    expect(await credits.refund({ userId, amount: 1_000, idempotencyKey: `refund:${generationId}:all`, generationId })).toMatchObject({ applied: true, moved: 2 });
    expect(await credits.refund({ userId, amount: 1_000, idempotencyKey: `refund:${generationId}:sweep`, generationId })).toMatchObject({ applied: false, moved: 0 });
    const refunds = await test.db.selectFrom('credit_ledger').select('idempotency_key').where('generation_id', '=', generationId).where('kind', '=', 'refund').execute();
    expect(refunds.map((r) => r.idempotency_key)).toEqual([`refund:${generationId}:all`]);
  });

  it('resets subscription credits to the allowance without rollover and keeps add-ons', async () => {
    const userId = await newUser();
    await seed(userId, 250, 100);
    await credits.reserve({ userId, amount: 50, idempotencyKey: 'spend', generationId: await newGeneration(userId) });
    await credits.resetSubscription({ userId, amount: 800, idempotencyKey: 'invoice:2' });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 800, addOnCredits: 100 });
  });
});
