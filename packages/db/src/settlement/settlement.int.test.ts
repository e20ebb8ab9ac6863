import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@prodshot/testing';
import { createRepositories, type Repositories } from '../repositories/repositories.js';
import { ledgerKeys } from './ledger-keys.js';
import {
  abandonGeneration,
  abandonSlot,
  failOpenSlots,
  failSlot,
  refundAllHeld,
  refundUnused,
  settleSlot,
  type SettlementDeps,
} from './settlement.js';

const stack = inject('stack');
let test: TestDatabase;
let repos: Repositories;
/** What settlement is given: the pool and its repositories, as the worker and the API give them. */
let deps: SettlementDeps;

beforeAll(async () => {
  test = await createTestDatabase(stack);
  repos = createRepositories(test.db);
  deps = { db: test.db, repos };
});
afterAll(() => test.drop());

/** A user with `credits` add-on credits and a generation of `slots` slots that reserved `reserved` of them, as the API opens one. */
async function opened(credits: number, slots: number, reserved: number) {
  const { id: userId } = await test.db
    .insertInto('users')
    .values({ clerk_id: `user_${crypto.randomUUID()}`, email: 's@example.com' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await repos.credits.grantAddOn({ userId, amount: credits, idempotencyKey: `grant:${userId}` });
  const styles = Array.from({ length: slots }, (_, index) => ({
    index,
    name: `Style ${index}`,
    prompt: null,
    backgroundType: 'studio',
  }));
  const { id: generationId } = await repos.generations.create({
    userId,
    imageId: null,
    kind: 'smart',
    stage: null,
    request: {},
    slots: styles,
  });
  if (reserved > 0)
    await repos.credits.reserve({
      userId,
      generationId,
      amount: reserved,
      idempotencyKey: ledgerKeys.reserve(generationId),
    });
  return { userId, generationId };
}

async function ledger(generationId: string) {
  const rows = await test.db
    .selectFrom('credit_ledger')
    .select(['kind', 'idempotency_key', 'addon_delta'])
    .where('generation_id', '=', generationId)
    .where('kind', '!=', 'reserve')
    .orderBy('id')
    .execute();
  return rows.map((row) => [row.kind, row.idempotency_key, row.addon_delta]);
}

async function balance(userId: string): Promise<number> {
  return (await repos.credits.balance(userId)).addOnCredits;
}

async function statuses(generationId: string) {
  return (await repos.generations.styles(generationId)).map((style) => style.status);
}

const output = { resultKey: 'outputs/0.png', seed: 7 };

describe('settleSlot', () => {
  it('completes the slot and spends its credit under the slot’s settle key, once', async () => {
    const g = await opened(3, 2, 2);
    expect(await settleSlot(deps, { ...g, index: 1 }, output)).toBe(true);
    expect(await settleSlot(deps, { ...g, index: 1 }, output)).toBe(false);
    expect(await statuses(g.generationId)).toEqual(['queued', 'complete']);
    expect((await repos.generations.styles(g.generationId))[1]).toMatchObject({
      result_key: 'outputs/0.png',
      seed: 7,
      progress: 100,
    });
    expect(await ledger(g.generationId)).toEqual([['settle', `settle:${g.generationId}:1`, 0]]);
    expect(await balance(g.userId)).toBe(1);
  });

  it('settles a retried style under its attempt’s key', async () => {
    const g = await opened(3, 1, 1);
    await failSlot(deps, { ...g, index: 0 }, 'broke');
    await repos.generations.retryFailedStyle(g.generationId, 0);
    await repos.credits.reserve({ ...g, amount: 1, idempotencyKey: ledgerKeys.reserveSlot(g.generationId, 0, 1) });
    expect(await settleSlot(deps, { ...g, index: 0 }, output)).toBe(true);
    expect(await ledger(g.generationId)).toEqual([
      ['refund', `refund:${g.generationId}:0`, 1],
      ['settle', `settle:${g.generationId}:0:retry-1`, 0],
    ]);
    expect(await balance(g.userId)).toBe(2);
  });

  it('leaves a slot failed meanwhile as it is, and spends nothing', async () => {
    const g = await opened(1, 1, 1);
    await failSlot(deps, { ...g, index: 0 }, 'interrupted');
    expect(await settleSlot(deps, { ...g, index: 0 }, output)).toBe(false);
    expect(await statuses(g.generationId)).toEqual(['failed']);
    expect(await ledger(g.generationId)).toEqual([['refund', `refund:${g.generationId}:0`, 1]]);
  });
});

describe('failSlot', () => {
  it('fails the slot and gives its credit back under the slot’s refund key, once', async () => {
    const g = await opened(3, 2, 2);
    expect(await failSlot(deps, { ...g, index: 0 }, 'broke')).toEqual({
      failed: [0],
      refunded: { amount: 1, balance: { subscriptionCredits: 0, addOnCredits: 2 } },
    });
    expect(await failSlot(deps, { ...g, index: 0 }, 'broke again')).toEqual({ failed: [], refunded: null });
    expect((await repos.generations.styles(g.generationId)).map((s) => [s.status, s.error])).toEqual([
      ['failed', 'broke'],
      ['queued', null],
    ]);
    expect(await ledger(g.generationId)).toEqual([['refund', `refund:${g.generationId}:0`, 1]]);
  });

  it('fails a slot whose credit already came back without refunding it twice', async () => {
    const g = await opened(2, 1, 1);
    await refundAllHeld(deps, g, 'sweep');
    expect(await failSlot(deps, { ...g, index: 0 }, 'broke')).toEqual({ failed: [0], refunded: null });
    expect(await balance(g.userId)).toBe(2);
  });
});

describe('failOpenSlots', () => {
  it('fails every open slot, leaves stored outputs alone and refunds each open one under its own key, once', async () => {
    const g = await opened(4, 3, 3);
    await settleSlot(deps, { ...g, index: 0 }, output);
    expect(await failOpenSlots(deps, g, 'the shared step failed')).toEqual({
      failed: [1, 2],
      refunded: { amount: 2, balance: { subscriptionCredits: 0, addOnCredits: 3 } },
    });
    expect(await failOpenSlots(deps, g, 'again')).toEqual({ failed: [], refunded: null });
    expect(await statuses(g.generationId)).toEqual(['complete', 'failed', 'failed']);
    expect(await ledger(g.generationId)).toEqual([
      ['settle', `settle:${g.generationId}:0`, 0],
      ['refund', `refund:${g.generationId}:1`, 1],
      ['refund', `refund:${g.generationId}:2`, 1],
    ]);
  });

  it('answers the slots it failed even when none of their credits were still held', async () => {
    const g = await opened(2, 2, 2);
    await refundAllHeld(deps, g, 'sweep');
    expect(await failOpenSlots(deps, g, 'failed')).toEqual({ failed: [0, 1], refunded: null });
    expect(await balance(g.userId)).toBe(2);
  });
});

describe('refundAllHeld', () => {
  it('gives back exactly what the generation holds, under the reason’s key, once', async () => {
    const g = await opened(6, 4, 4);
    await settleSlot(deps, { ...g, index: 0 }, output);
    await failSlot(deps, { ...g, index: 1 }, 'broke');
    expect(await refundAllHeld(deps, g, 'sweep')).toEqual({
      amount: 2,
      balance: { subscriptionCredits: 0, addOnCredits: 5 },
    });
    expect(await refundAllHeld(deps, g, 'sweep')).toBeNull();
    expect(await ledger(g.generationId)).toEqual([
      ['settle', `settle:${g.generationId}:0`, 0],
      ['refund', `refund:${g.generationId}:1`, 1],
      ['refund', `refund:${g.generationId}:sweep`, 2],
    ]);
  });

  it('never gives back more than the generation holds, whatever gives back after it', async () => {
    const g = await opened(5, 3, 3);
    expect(await refundAllHeld(deps, g, 'enqueue')).toMatchObject({ amount: 3 });
    expect(await refundAllHeld(deps, g, 'sweep')).toBeNull();
    expect(await refundUnused(deps, g, 3, 'recommendation')).toBeNull();
    expect(await failOpenSlots(deps, g, 'failed')).toEqual({ failed: [0, 1, 2], refunded: null });
    expect(await balance(g.userId)).toBe(5);
    expect(await ledger(g.generationId)).toEqual([['refund', `refund:${g.generationId}:enqueue`, 3]]);
  });

  it('moves nothing and writes nothing for a generation that holds nothing', async () => {
    const g = await opened(1, 0, 0);
    expect(await refundAllHeld(deps, g, 'sweep')).toBeNull();
    expect(await ledger(g.generationId)).toEqual([]);
  });
});

describe('refundUnused', () => {
  it('gives back the credits paid for and not used, under the reason’s key, once', async () => {
    const g = await opened(4, 0, 4);
    expect(await refundUnused(deps, g, 1, 'unused')).toEqual({
      amount: 1,
      balance: { subscriptionCredits: 0, addOnCredits: 1 },
    });
    expect(await refundUnused(deps, g, 1, 'unused')).toBeNull();
    expect(await ledger(g.generationId)).toEqual([['refund', `refund:${g.generationId}:unused`, 1]]);
  });

  it('gives back no more than the generation holds, and nothing for a count of none', async () => {
    const g = await opened(3, 0, 2);
    expect(await refundUnused(deps, g, 0, 'unsupported')).toBeNull();
    expect(await refundUnused(deps, g, 5, 'unsupported')).toMatchObject({ amount: 2 });
    expect(await ledger(g.generationId)).toEqual([['refund', `refund:${g.generationId}:unsupported`, 2]]);
    expect(await balance(g.userId)).toBe(3);
  });
});

describe('abandonGeneration', () => {
  it('fails the open slots, gives back all the generation holds under its enqueue key and settles it failed, once', async () => {
    const g = await opened(3, 2, 2);
    expect(await abandonGeneration(deps, g, 'could not be queued')).toEqual({
      amount: 2,
      balance: { subscriptionCredits: 0, addOnCredits: 3 },
    });
    expect(await abandonGeneration(deps, g, 'could not be queued')).toBeNull();
    expect(await statuses(g.generationId)).toEqual(['failed', 'failed']);
    expect(await repos.generations.find(g.generationId)).toMatchObject({
      status: 'failed',
      error: 'could not be queued',
    });
    expect(await ledger(g.generationId)).toEqual([['refund', `refund:${g.generationId}:enqueue`, 2]]);
  });
});

describe('abandonSlot', () => {
  it('fails the one slot and gives its credit back, settling the generation only once nothing is open', async () => {
    const g = await opened(3, 2, 2);
    expect(await abandonSlot(deps, { ...g, index: 1 }, 'could not be queued')).toMatchObject({ amount: 1 });
    expect((await repos.generations.find(g.generationId))!.status).toBe('queued');
    await settleSlot(deps, { ...g, index: 0 }, output);
    expect(await abandonSlot(deps, { ...g, index: 1 }, 'could not be queued')).toBeNull();
    expect((await repos.generations.find(g.generationId))!.status).toBe('complete');
    expect(await ledger(g.generationId)).toEqual([
      ['refund', `refund:${g.generationId}:1`, 1],
      ['settle', `settle:${g.generationId}:0`, 0],
    ]);
  });
});
