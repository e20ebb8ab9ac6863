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
  const row = await test.db
    .insertInto('users')
    .values({ clerk_id: `user_${counter}`, email: `u${counter}@example.com` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function newGeneration(userId: string): Promise<string> {
  const row = await test.db
    .insertInto('generations')
    .values({ user_id: userId, image_id: null, kind: 'smart', stage: null, error: null, request: {} })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Credits spent on stored shots: reserved by a generation that settled each one. */
async function spendOnShots(userId: string, amount: number): Promise<void> {
  const generationId = await newGeneration(userId);
  await credits.reserve({ userId, amount, idempotencyKey: `reserve:${generationId}`, generationId });
  for (let index = 0; index < amount; index += 1)
    await credits.settle({ userId, generationId, idempotencyKey: `settle:${generationId}:${index}` });
}

async function seed(userId: string, subscription: number, addOn: number): Promise<void> {
  if (subscription)
    await credits.resetSubscription({ userId, amount: subscription, idempotencyKey: `seed-sub-${userId}` });
  if (addOn) await credits.grantAddOn({ userId, amount: addOn, idempotencyKey: `seed-addon-${userId}` });
}

describe('CreditsRepository', () => {
  it('starts a new user at zero', async () => {
    expect(await credits.balance(await newUser())).toEqual({ subscriptionCredits: 0, addOnCredits: 0 });
  });

  it('spends subscription credits first, then add-on credits', async () => {
    const userId = await newUser();
    await seed(userId, 2, 5);
    const { balance } = await credits.reserve({
      userId,
      amount: 4,
      idempotencyKey: 'r1',
      generationId: await newGeneration(userId),
    });
    expect(balance).toEqual({ subscriptionCredits: 0, addOnCredits: 3 });
  });

  it('refuses a reservation larger than the balance and moves nothing', async () => {
    const userId = await newUser();
    await seed(userId, 1, 1);
    await expect(
      credits.reserve({ userId, amount: 3, idempotencyKey: 'r-too-much', generationId: await newGeneration(userId) }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
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
    expect(await credits.reserve(input)).toEqual({
      applied: false,
      moved: 0,
      balance: { subscriptionCredits: 0, addOnCredits: 0 },
    });
  });

  it('charges once for ten concurrent replays of one reservation', async () => {
    const userId = await newUser();
    await seed(userId, 2, 1);
    const generationId = await newGeneration(userId);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        credits.reserve({ userId, amount: 2, idempotencyKey: `replayed:${generationId}`, generationId }),
      ),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 1 });
  });

  it('refuses a user who never had credits and writes no ledger row', async () => {
    const userId = await newUser();
    const generationId = await newGeneration(userId);
    await expect(
      credits.reserve({ userId, amount: 1, idempotencyKey: `reserve:${generationId}`, generationId }),
    ).rejects.toMatchObject({
      name: 'InsufficientCreditsError',
      code: 'insufficient_credits',
      message: 'Not enough credits: this needs 1 and you have 0.',
      needed: 1,
      available: 0,
    });
    expect(await test.db.selectFrom('credit_ledger').select('id').where('user_id', '=', userId).execute()).toEqual([]);
  });

  it('lets exactly as many of 100 concurrent reservations through as there are credits', async () => {
    const userId = await newUser();
    await seed(userId, 6, 4);
    const generations = await Promise.all(Array.from({ length: 100 }, () => newGeneration(userId)));
    const results = await Promise.allSettled(
      generations.map((generationId) =>
        credits.reserve({ userId, amount: 1, idempotencyKey: `race:${generationId}`, generationId }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof InsufficientCreditsError)).toHaveLength(
      90,
    );
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 0 });
  });

  // Ten rounds, as a lost update shows only in some interleavings.
  it('keeps the balance equal to the ledger under concurrent reservations, grants and resets', async () => {
    for (let round = 0; round < 10; round += 1) {
      const userId = await newUser();
      await seed(userId, 5, 0);
      const generations = await Promise.all(Array.from({ length: 40 }, () => newGeneration(userId)));
      const results = await Promise.allSettled([
        ...generations.map((generationId) =>
          credits.reserve({ userId, amount: 1, idempotencyKey: `mixed:${generationId}`, generationId }),
        ),
        ...Array.from({ length: 10 }, (_, n) =>
          credits.grantAddOn({ userId, amount: 2, idempotencyKey: `mixed-grant:${userId}:${n}` }),
        ),
        ...Array.from({ length: 5 }, (_, n) =>
          credits.resetSubscription({ userId, amount: 3, idempotencyKey: `mixed-reset:${userId}:${n}` }),
        ),
      ]);
      expect(results.filter((r) => r.status === 'rejected' && !(r.reason instanceof InsufficientCreditsError))).toEqual(
        [],
      );
      const ledger = await test.db
        .selectFrom('credit_ledger')
        .select((eb) => [
          eb.fn.sum<string>('subscription_delta').as('subscription'),
          eb.fn.sum<string>('addon_delta').as('addon'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      expect(await credits.balance(userId)).toEqual({
        subscriptionCredits: Number(ledger.subscription),
        addOnCredits: Number(ledger.addon),
      });
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
    expect(
      await credits.refund({ userId, amount: 1_000, idempotencyKey: `refund:${generationId}:all`, generationId }),
    ).toMatchObject({ applied: true, moved: 2 });
    expect(
      await credits.refund({ userId, amount: 1_000, idempotencyKey: `refund:${generationId}:sweep`, generationId }),
    ).toMatchObject({ applied: false, moved: 0 });
    const refunds = await test.db
      .selectFrom('credit_ledger')
      .select('idempotency_key')
      .where('generation_id', '=', generationId)
      .where('kind', '=', 'refund')
      .execute();
    expect(refunds.map((r) => r.idempotency_key)).toEqual([`refund:${generationId}:all`]);
  });

  it('resets subscription credits to the allowance without rollover and keeps add-ons', async () => {
    const userId = await newUser();
    await seed(userId, 250, 100);
    await credits.reserve({ userId, amount: 50, idempotencyKey: 'spend', generationId: await newGeneration(userId) });
    await credits.resetSubscription({ userId, amount: 800, idempotencyKey: 'invoice:2' });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 800, addOnCredits: 100 });
  });
  it('never lifts a new period above its allowance with a refund of a reservation from the period before', async () => {
    const userId = await newUser();
    await credits.resetSubscription({ userId, amount: 250, idempotencyKey: `period-1:${userId}` });
    await credits.grantAddOn({ userId, amount: 5, idempotencyKey: `pack:${userId}` });
    const open = await newGeneration(userId);
    await credits.reserve({ userId, amount: 252, idempotencyKey: `reserve:${open}`, generationId: open });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 3 });

    await credits.resetSubscription({ userId, amount: 250, idempotencyKey: `period-2:${userId}` });
    const result = await credits.refund({ userId, amount: 252, idempotencyKey: `refund:${open}`, generationId: open });
    // The add-on credits come back; the old period's subscription credits expired with it.
    expect(result).toMatchObject({ applied: true, moved: 2, balance: { subscriptionCredits: 250, addOnCredits: 5 } });
    expect(
      await credits.refund({ userId, amount: 252, idempotencyKey: `refund-again:${open}`, generationId: open }),
    ).toMatchObject({ applied: false, moved: 0 });

    // A reservation of the current period still comes back whole.
    const current = await newGeneration(userId);
    await credits.reserve({ userId, amount: 10, idempotencyKey: `reserve:${current}`, generationId: current });
    await credits.refund({ userId, amount: 10, idempotencyKey: `refund:${current}`, generationId: current });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 250, addOnCredits: 5 });
  });

  it('gives nothing back to a subscription that ended after the reservation', async () => {
    const userId = await newUser();
    await seed(userId, 40, 0);
    const generationId = await newGeneration(userId);
    await credits.reserve({ userId, amount: 4, idempotencyKey: `reserve:${generationId}`, generationId });
    expect(await credits.expireSubscription({ userId, idempotencyKey: `end:${userId}` })).toMatchObject({
      applied: true,
      balance: { subscriptionCredits: 0 },
    });
    await credits.refund({ userId, amount: 4, idempotencyKey: `refund:${generationId}`, generationId });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 0 });
  });

  it("takes back at most a purchase's unspent credits, records each take-back, and gives back only what it took", async () => {
    const userId = await newUser();
    await credits.grantAddOn({
      userId,
      amount: 100,
      idempotencyKey: `pack:${userId}`,
      purchase: { paymentRefs: [`pi_${userId}`] },
    });
    await spendOnShots(userId, 70);
    const purchase = (await credits.purchaseByPayment([`ch_unknown`, `pi_${userId}`]))!;
    expect(purchase).toMatchObject({ grant_key: `pack:${userId}`, user_id: userId, bucket: 'addon', credits: 100 });

    expect(await credits.takeBack({ purchase, upTo: 100, idempotencyKey: `revoke:${userId}` })).toMatchObject({
      applied: true,
      moved: 30,
      balance: { addOnCredits: 0 },
    });
    expect(await credits.takeBack({ purchase, upTo: 100, idempotencyKey: `revoke-again:${userId}` })).toMatchObject({
      applied: false,
      moved: 0,
    });
    expect(
      await credits.giveBack({ purchase, revokeKey: `revoke:${userId}`, idempotencyKey: `restore:${userId}` }),
    ).toMatchObject({ moved: 30, balance: { addOnCredits: 30 } });
    expect(
      await credits.giveBack({ purchase, revokeKey: `revoke:${userId}`, idempotencyKey: `restore:${userId}` }),
    ).toMatchObject({ applied: false });
    const rows = await test.db
      .selectFrom('credit_ledger')
      .select(['kind', 'addon_delta', 'purchase_key'])
      .where('user_id', '=', userId)
      .where('kind', 'in', ['revoke', 'restore'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { kind: 'revoke', addon_delta: -30, purchase_key: `pack:${userId}` },
      { kind: 'restore', addon_delta: 30, purchase_key: `pack:${userId}` },
    ]);
  });

  it("gives a pack's taken credits back whole to a seller who also holds plan credits: a plan period's cap is not a pack's", async () => {
    const userId = await newUser();
    await credits.resetSubscription({ userId, amount: 60, idempotencyKey: `period:${userId}` });
    await credits.grantAddOn({
      userId,
      amount: 100,
      idempotencyKey: `pack:${userId}`,
      purchase: { paymentRefs: [`pi_${userId}`] },
    });
    const purchase = (await credits.purchaseByPayment([`pi_${userId}`]))!;
    expect(await credits.takeBack({ purchase, upTo: 100, idempotencyKey: `dispute:${userId}` })).toMatchObject({
      moved: 100,
      balance: { subscriptionCredits: 60, addOnCredits: 0 },
    });
    expect(
      await credits.giveBack({ purchase, revokeKey: `dispute:${userId}`, idempotencyKey: `won:${userId}` }),
    ).toEqual({
      applied: true,
      moved: 100,
      balance: { subscriptionCredits: 60, addOnCredits: 100 },
    });
  });

  it('moves only whole, positive amounts, and resets only to a whole allowance of at least 0', async () => {
    const userId = await newUser();
    await seed(userId, 5, 5);
    const generationId = await newGeneration(userId);
    for (const amount of [0, -1, 1.5]) {
      const input = { userId, amount, idempotencyKey: `bad:${amount}:${userId}`, generationId };
      for (const movement of [credits.reserve(input), credits.refund(input), credits.grantAddOn(input)]) {
        await expect(movement).rejects.toThrow(new RangeError('amount must be a whole number > 0'));
      }
    }
    for (const amount of [-1, 2.5]) {
      await expect(
        credits.resetSubscription({ userId, amount, idempotencyKey: `bad-reset:${amount}:${userId}` }),
      ).rejects.toThrow(new RangeError('allowance must be a whole number ≥ 0'));
    }
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 5, addOnCredits: 5 });
    // A period with no allowance is a reset to 0, and there is nothing in it a refund could take back.
    const free = await credits.resetSubscription({
      userId,
      amount: 0,
      idempotencyKey: `free:${userId}`,
      reason: 'free period',
      purchase: { paymentRefs: [`pi_free_${userId}`] },
    });
    expect(free).toMatchObject({ applied: true, moved: 5, balance: { subscriptionCredits: 0, addOnCredits: 5 } });
    expect(await credits.purchaseByPayment([`pi_free_${userId}`])).toBeUndefined();
    const row = await test.db
      .selectFrom('credit_ledger')
      .select(['kind', 'reason'])
      .where('idempotency_key', '=', `free:${userId}`)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: 'reset_subscription', reason: 'free period' });
  });

  it('finds a purchase by any of its payments, and none for no payment', async () => {
    const userId = await newUser();
    await credits.grantAddOn({
      userId,
      amount: 100,
      idempotencyKey: `pack-found:${userId}`,
      purchase: { paymentRefs: [`pi_found_${userId}`, `ch_found_${userId}`] },
    });
    const found = await credits.purchaseByPayment([`ch_found_${userId}`]);
    expect(found).toEqual({
      grant_key: `pack-found:${userId}`,
      user_id: userId,
      bucket: 'addon',
      credits: 100,
      created_at: expect.any(Date),
    });
    expect(await credits.purchaseByPayment([])).toBeUndefined();
  });

  it('takes back only the difference at a second, larger partial refund', async () => {
    const userId = await newUser();
    await credits.grantAddOn({
      userId,
      amount: 100,
      idempotencyKey: `pack-partial:${userId}`,
      purchase: { paymentRefs: [`pi_partial_${userId}`] },
    });
    const purchase = (await credits.purchaseByPayment([`pi_partial_${userId}`]))!;
    expect(await credits.takeBack({ purchase, upTo: 50, idempotencyKey: `refund-half:${userId}` })).toMatchObject({
      moved: 50,
      balance: { addOnCredits: 50 },
    });
    expect(await credits.takeBack({ purchase, upTo: 75, idempotencyKey: `refund-more:${userId}` })).toMatchObject({
      moved: 25,
      balance: { addOnCredits: 25 },
    });
  });

  it("gives a plan period's taken credits back only while the period lasts, never above its allowance, and nothing that was not taken", async () => {
    const userId = await newUser();
    const grantKey = `period:${userId}`;
    await credits.resetSubscription({
      userId,
      amount: 800,
      idempotencyKey: grantKey,
      purchase: { paymentRefs: [`in_${userId}`] },
    });
    await spendOnShots(userId, 100);
    const purchase = (await credits.purchaseByPayment([`in_${userId}`]))!;
    expect(await credits.takeBack({ purchase, upTo: 800, idempotencyKey: `dispute:${userId}` })).toMatchObject({
      moved: 700,
      balance: { subscriptionCredits: 0 },
    });

    expect(
      await credits.giveBack({
        purchase,
        revokeKey: `never-taken:${userId}`,
        idempotencyKey: `restore-nothing:${userId}`,
      }),
    ).toEqual({
      applied: false,
      moved: 0,
      balance: { subscriptionCredits: 0, addOnCredits: 0 },
    });
    // What it took, not the whole allowance: the 100 spent stay spent.
    expect(
      await credits.giveBack({ purchase, revokeKey: `dispute:${userId}`, idempotencyKey: `restore:${userId}` }),
    ).toMatchObject({ moved: 700, balance: { subscriptionCredits: 700 } });
    expect(
      await credits.giveBack({ purchase, revokeKey: `dispute:${userId}`, idempotencyKey: `restore-again:${userId}` }),
    ).toMatchObject({ moved: 100, balance: { subscriptionCredits: 800 } });
    const restores = await test.db
      .selectFrom('credit_ledger')
      .select('idempotency_key')
      .where('user_id', '=', userId)
      .where('kind', '=', 'restore')
      .execute();
    expect(restores.map((r) => r.idempotency_key)).toEqual([`restore:${userId}`, `restore-again:${userId}`]);

    await credits.takeBack({ purchase, upTo: 800, idempotencyKey: `dispute-2:${userId}` });
    await credits.resetSubscription({ userId, amount: 800, idempotencyKey: `next-period:${userId}` });
    expect(
      await credits.giveBack({ purchase, revokeKey: `dispute-2:${userId}`, idempotencyKey: `restore-late:${userId}` }),
    ).toMatchObject({ applied: false, moved: 0 });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 800, addOnCredits: 0 });
  });
});

describe('CreditsRepository: reversals reach held credits', () => {
  async function paidPack(userId: string, amount: number, payment = `pi_pack_${userId}`) {
    await credits.grantAddOn({
      userId,
      amount,
      idempotencyKey: `pack:${payment}`,
      purchase: { paymentRefs: [payment] },
    });
    return (await credits.purchaseByPayment([payment]))!;
  }

  async function held(userId: string, amount: number): Promise<string> {
    const generationId = await newGeneration(userId);
    await credits.reserve({ userId, amount, idempotencyKey: `reserve:${generationId}`, generationId });
    return generationId;
  }

  async function debtOf(userId: string): Promise<number> {
    return (
      await test.db
        .selectFrom('credit_balances')
        .select('debt_credits')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).debt_credits;
  }

  /** The user's claw rows, oldest first: [generation, subscription delta, add-on delta]. */
  async function claws(userId: string) {
    const rows = await test.db
      .selectFrom('credit_ledger')
      .select(['generation_id', 'subscription_delta', 'addon_delta', 'reason'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'claw')
      .orderBy('id')
      .execute();
    return rows.map((r) => [r.generation_id, r.subscription_delta, r.addon_delta, r.reason]);
  }

  function refundAll(userId: string, generationId: string) {
    return credits.refundHeld({ userId, generationId, idempotencyKey: `refund:${generationId}:all` });
  }

  it('takes a refunded pack back from held work when the balance is empty, and that work failing gives nothing back', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 100);
    const [older, newer] = [await held(userId, 60), await held(userId, 40)];

    expect(
      await credits.takeBack({ purchase, upTo: 100, idempotencyKey: `refund:${userId}`, reason: 'payment refunded' }),
    ).toEqual({
      applied: true,
      moved: 100,
      balance: { subscriptionCredits: 0, addOnCredits: 0 },
    });
    expect(await claws(userId)).toEqual([
      [newer, 0, 40, 'payment refunded'],
      [older, 0, 60, 'payment refunded'],
    ]);
    const revoke = await test.db
      .selectFrom('credit_ledger')
      .select(['addon_delta', 'purchase_key'])
      .where('idempotency_key', '=', `refund:${userId}`)
      .executeTakeFirstOrThrow();
    expect(revoke).toEqual({ addon_delta: -100, purchase_key: purchase.grant_key });

    for (const generationId of [older, newer])
      expect(await refundAll(userId, generationId)).toMatchObject({ applied: false, moved: 0 });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 0 });
    expect(await debtOf(userId)).toBe(0);
  });

  it('takes the balance first, then the newest held work, at a partial refund: the rest of that work comes back when it fails', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 100);
    const [older, newer] = [await held(userId, 30), await held(userId, 50)];

    expect(await credits.takeBack({ purchase, upTo: 50, idempotencyKey: `half:${userId}` })).toMatchObject({
      applied: true,
      moved: 50,
      balance: { addOnCredits: 0 },
    });
    expect(await claws(userId)).toEqual([[newer, 0, 30, null]]);
    expect(await refundAll(userId, newer)).toMatchObject({ moved: 20, balance: { addOnCredits: 20 } });
    expect(await refundAll(userId, older)).toMatchObject({ moved: 30, balance: { addOnCredits: 50 } });

    // The rest of the payment back: the 50 left go, none of it from work that holds nothing now.
    expect(await credits.takeBack({ purchase, upTo: 100, idempotencyKey: `rest:${userId}` })).toMatchObject({
      moved: 50,
      balance: { addOnCredits: 0 },
    });
    expect(await claws(userId)).toHaveLength(1);
    // A smaller refund delivered late takes nothing (and gives nothing).
    await credits.grantAddOn({ userId, amount: 7, idempotencyKey: `gift:${userId}` });
    expect(await credits.takeBack({ purchase, upTo: 50, idempotencyKey: `late:${userId}` })).toEqual({
      applied: false,
      moved: 0,
      balance: { subscriptionCredits: 0, addOnCredits: 7 },
    });
  });

  it('leaves the shots a generation stored spent: only what it still holds is clawed', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 10);
    const work = await held(userId, 6);
    for (const index of [0, 1])
      await credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:${index}` });

    expect(await credits.takeBack({ purchase, upTo: 10, idempotencyKey: `refund:${userId}` })).toMatchObject({
      moved: 8,
      balance: { addOnCredits: 0 },
    });
    expect(await claws(userId)).toEqual([[work, 0, 4, null]]);
    expect(await debtOf(userId)).toBe(0);
  });

  it("claws only what work holds of the reversed purchase's bucket, and nothing of a period that is over", async () => {
    const userId = await newUser();
    await credits.resetSubscription({
      userId,
      amount: 800,
      idempotencyKey: `period:${userId}`,
      purchase: { paymentRefs: [`in_${userId}`] },
    });
    await credits.grantAddOn({ userId, amount: 5, idempotencyKey: `free-pack:${userId}` });
    const work = await held(userId, 803);
    // Ten shots stored: they spent ten of the period's credits, not the add-on credits (those come back first).
    for (let index = 0; index < 10; index += 1)
      await credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:${index}` });
    const period = (await credits.purchaseByPayment([`in_${userId}`]))!;

    expect(
      await credits.takeBack({ purchase: period, upTo: 800, idempotencyKey: `refund-period:${userId}` }),
    ).toMatchObject({
      moved: 790,
      balance: { subscriptionCredits: 0, addOnCredits: 2 },
    });
    expect(await claws(userId)).toEqual([[work, 790, 0, null]]);
    expect(await debtOf(userId)).toBe(0);
    // The add-on credits the work holds are not the period's: they come back.
    expect(await refundAll(userId, work)).toMatchObject({
      moved: 3,
      balance: { subscriptionCredits: 0, addOnCredits: 5 },
    });

    await credits.resetSubscription({
      userId,
      amount: 800,
      idempotencyKey: `period-2:${userId}`,
      purchase: { paymentRefs: [`in_2_${userId}`] },
    });
    const old = (await credits.purchaseByPayment([`in_2_${userId}`]))!;
    await held(userId, 800);
    await credits.resetSubscription({ userId, amount: 800, idempotencyKey: `period-3:${userId}` });
    expect(await credits.takeBack({ purchase: old, upTo: 800, idempotencyKey: `refund-old:${userId}` })).toMatchObject({
      applied: false,
      moved: 0,
    });
    expect(await claws(userId)).toHaveLength(1);
  });

  it('charges a shot that clawed work stores: from the balance first, the rest as debt, which the next pack repays first', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 10);
    const work = await held(userId, 10);
    await credits.takeBack({ purchase, upTo: 10, idempotencyKey: `dispute:${userId}` });
    await credits.grantAddOn({ userId, amount: 3, idempotencyKey: `gift:${userId}` });

    const settle = (index: number) =>
      credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:${index}` });
    expect(await settle(0)).toEqual({ applied: true, moved: 1, balance: { subscriptionCredits: 0, addOnCredits: 2 } });
    for (const index of [1, 2, 3, 4]) await settle(index);
    expect(await settle(4)).toMatchObject({ applied: false, moved: 0 });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 0 });
    expect(await debtOf(userId)).toBe(2);
    const rows = await test.db
      .selectFrom('credit_ledger')
      .select(['addon_delta', 'debt_delta'])
      .where('generation_id', '=', work)
      .where('kind', '=', 'settle')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.addon_delta, r.debt_delta])).toEqual([
      [-1, 0],
      [-1, 0],
      [-1, 0],
      [0, 1],
      [0, 1],
    ]);
    expect(await refundAll(userId, work)).toMatchObject({ applied: false });

    expect(await credits.grantAddOn({ userId, amount: 5, idempotencyKey: `pack-2:${userId}` })).toEqual({
      applied: true,
      moved: 5,
      balance: { subscriptionCredits: 0, addOnCredits: 3 },
    });
    expect(await debtOf(userId)).toBe(0);
    const grant = await test.db
      .selectFrom('credit_ledger')
      .select(['addon_delta', 'debt_delta'])
      .where('idempotency_key', '=', `pack-2:${userId}`)
      .executeTakeFirstOrThrow();
    expect(grant).toEqual({ addon_delta: 3, debt_delta: -2 });
  });

  it('charges no shot while its generation still holds an unclawed credit, nor one of a generation never clawed', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 3);
    const work = await held(userId, 3);
    await credits.takeBack({ purchase, upTo: 1, idempotencyKey: `part:${userId}` });
    await credits.grantAddOn({ userId, amount: 4, idempotencyKey: `gift:${userId}` });
    for (const index of [0, 1])
      await credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:${index}` });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 4 });
    await credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:2` });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 3 });

    // Work whose credits came back for another reason (a sweep) is not charged for a late shot.
    const swept = await held(userId, 2);
    await refundAll(userId, swept);
    expect(await credits.settle({ userId, generationId: swept, idempotencyKey: `settle:${swept}:0` })).toMatchObject({
      applied: true,
      moved: 0,
    });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 3 });
  });

  it('repays debt first from a new period, up to its allowance', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 4);
    const work = await held(userId, 4);
    await credits.takeBack({ purchase, upTo: 4, idempotencyKey: `dispute:${userId}` });
    for (const index of [0, 1, 2])
      await credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:${index}` });
    expect(await debtOf(userId)).toBe(3);

    expect(await credits.resetSubscription({ userId, amount: 2, idempotencyKey: `small:${userId}` })).toEqual({
      applied: true,
      moved: 2,
      balance: { subscriptionCredits: 0, addOnCredits: 0 },
    });
    expect(await debtOf(userId)).toBe(1);
    expect(await credits.resetSubscription({ userId, amount: 0, idempotencyKey: `none:${userId}` })).toMatchObject({
      balance: { subscriptionCredits: 0 },
    });
    expect(await debtOf(userId)).toBe(1);
    expect(await credits.resetSubscription({ userId, amount: 800, idempotencyKey: `renewal:${userId}` })).toMatchObject(
      { moved: 800, balance: { subscriptionCredits: 799 } },
    );
    expect(await debtOf(userId)).toBe(0);
  });

  it('gives back exactly what a won dispute took, balance and held work alike, repaying the debt its shots ran up first', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 10);
    const work = await held(userId, 6);
    expect(await credits.takeBack({ purchase, upTo: 10, idempotencyKey: `dispute:${userId}` })).toMatchObject({
      moved: 10,
    });
    for (const index of [0, 1])
      await credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:${index}` });
    expect(await debtOf(userId)).toBe(2);

    expect(
      await credits.giveBack({ purchase, revokeKey: `dispute:${userId}`, idempotencyKey: `won:${userId}` }),
    ).toEqual({
      applied: true,
      moved: 10,
      balance: { subscriptionCredits: 0, addOnCredits: 8 },
    });
    expect(await debtOf(userId)).toBe(0);
    const restore = await test.db
      .selectFrom('credit_ledger')
      .select(['addon_delta', 'debt_delta'])
      .where('idempotency_key', '=', `won:${userId}`)
      .executeTakeFirstOrThrow();
    expect(restore).toEqual({ addon_delta: 8, debt_delta: -2 });
    // The work goes on as if nothing happened: a shot is paid for, the rest fails and gives nothing back twice.
    await credits.settle({ userId, generationId: work, idempotencyKey: `settle:${work}:2` });
    expect(await refundAll(userId, work)).toMatchObject({ applied: false });
    expect(await credits.balance(userId)).toEqual({ subscriptionCredits: 0, addOnCredits: 7 });
  });

  it('claws nothing again when a take-back is replayed, even after it was given back', async () => {
    const userId = await newUser();
    const purchase = await paidPack(userId, 10);
    const first = await held(userId, 4);
    await credits.takeBack({ purchase, upTo: 10, idempotencyKey: `withdrawn:${userId}` });
    await credits.giveBack({ purchase, revokeKey: `withdrawn:${userId}`, idempotencyKey: `won:${userId}` });
    const second = await held(userId, 10);

    expect(await credits.takeBack({ purchase, upTo: 10, idempotencyKey: `withdrawn:${userId}` })).toEqual({
      applied: false,
      moved: 0,
      balance: { subscriptionCredits: 0, addOnCredits: 0 },
    });
    expect(await claws(userId)).toEqual([[first, 0, 4, null]]);
    expect(await refundAll(userId, second)).toMatchObject({ moved: 10 });
  });

  // Five rounds, as an order that loses a credit shows only in some interleavings.
  it('keeps balance and debt equal to the ledger, and every credit accounted for, while a reversal races shots and grants', async () => {
    for (let round = 0; round < 5; round += 1) {
      const userId = await newUser();
      const purchase = await paidPack(userId, 20);
      const work = [await held(userId, 5), await held(userId, 5), await held(userId, 5), await held(userId, 5)];
      const results = await Promise.allSettled([
        credits.takeBack({ purchase, upTo: 20, idempotencyKey: `race-refund:${userId}` }),
        ...work.flatMap((generationId) =>
          [0, 1, 2, 3, 4].map((index) =>
            credits.settle({ userId, generationId, idempotencyKey: `settle:${generationId}:${index}` }),
          ),
        ),
        ...[0, 1, 2].map((n) => credits.grantAddOn({ userId, amount: 2, idempotencyKey: `race-gift:${userId}:${n}` })),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const ledger = await test.db
        .selectFrom('credit_ledger')
        .select((eb) => [
          eb.fn.sum<string>('subscription_delta').as('subscription'),
          eb.fn.sum<string>('addon_delta').as('addon'),
          eb.fn.sum<string>('debt_delta').as('debt'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      const balance = await credits.balance(userId);
      expect(balance).toEqual({ subscriptionCredits: Number(ledger.subscription), addOnCredits: Number(ledger.addon) });
      expect(await debtOf(userId)).toBe(Number(ledger.debt));
      // 20 bought and 6 given, less what the refund took (it takes nothing the shots stored before it spent), less the 20 shots.
      const revoked = await test.db
        .selectFrom('credit_ledger')
        .select(['id', 'addon_delta'])
        .where('idempotency_key', '=', `race-refund:${userId}`)
        .executeTakeFirstOrThrow();
      expect(balance.addOnCredits - Number(ledger.debt)).toBe(26 + revoked.addon_delta - 20);
      // Movements queue on the balance's lock, so ledger ids tell what came before the refund: it took the gifts on the balance, then all the work held.
      const before = await test.db
        .selectFrom('credit_ledger')
        .select('kind')
        .where('user_id', '=', userId)
        .where('id', '<', revoked.id)
        .where('kind', 'in', ['settle', 'grant_addon'])
        .execute();
      const [settled, gifts] = [
        before.filter((r) => r.kind === 'settle').length,
        before.filter((r) => r.kind === 'grant_addon').length - 1,
      ];
      expect(-revoked.addon_delta).toBe(Math.min(20, 2 * gifts + 20 - settled));
    }
  });
});
