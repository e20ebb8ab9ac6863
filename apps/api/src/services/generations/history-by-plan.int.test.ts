import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { historyDays, type ListPageQuery, type PaidPlanId } from '@prodshot/contracts';
import type { SubscriptionPatch } from '@prodshot/db';
import { historyPlan } from '../billing/subscription-lifecycle.js';
import { HttpError } from '../http-error.js';
import { historyRows, type HistoryRows } from '../../history-rows.test-support.js';
import { buildTestServices, type TestServices } from '../service-deps.test-support.js';

/**
 * How much history each plan keeps, as the read side answers it: the generation reads
 * (generation-reads.ts) and the uploads' list, upload and fallback file (services/uploads). The
 * lists' paging input and their OpenAPI shape are routes/images/history.int.test.ts.
 */
const stack = inject('stack');
let t: TestServices;
const log = { warn: () => {} } as never;

let rows: HistoryRows;

beforeAll(async () => {
  t = await buildTestServices(stack);
  rows = historyRows(t.deps.db);
});
afterAll(async () => {
  await t.close();
});

async function subscribe(userId: string, plan: PaidPlanId, patch: SubscriptionPatch = {}): Promise<void> {
  const row = await t.deps.repos.subscriptions.activate(userId, { plan, status: 'active', provider: 'local' });
  if (Object.keys(patch).length > 0) await t.deps.repos.subscriptions.update(row.id, patch);
}

async function seller(plan: PaidPlanId | 'none'): Promise<string> {
  const userId = await t.newUser(0);
  if (plan !== 'none') await subscribe(userId, plan);
  return userId;
}

/** What a read answers, as the route would: 200 when it goes through, its status when refused. */
async function answer(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof HttpError) return error.statusCode;
    throw error;
  }
}

/** Follows nextCursor from the first page to the last; every item, in order. */
async function walk<T>(
  page: (query: ListPageQuery) => Promise<{ data: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const next: { data: T[]; nextCursor: string | null } = await page({ limit: 100, ...(cursor ? { cursor } : {}) });
    items.push(...next.data);
    cursor = next.nextCursor;
    pages += 1;
    expect(pages).toBeLessThan(100);
  } while (cursor);
  return items;
}

/** What the seller can still see of an upload and a generation made `days` ago. */
async function visibleAfter(
  userId: string,
  days: number,
): Promise<{
  listed: { upload: boolean; output: boolean };
  byId: { upload: number; generation: number; file: number };
}> {
  const imageId = await rows.addUploads(userId, 1).then(([id]) => id!);
  const { id: generationId, outputIds } = await rows.addGeneration(userId, 1);
  await rows.age('images', [imageId], days);
  await rows.age('generations', [generationId], days);
  const uploads = await walk((query) => t.services.images.list(userId, query, log));
  const outputs = await walk((query) => t.services.generations.recentOutputs(userId, query, log));
  return {
    listed: {
      upload: uploads.some((image) => image._id === imageId),
      output: outputs.some((output) => output.id === outputIds[0]),
    },
    byId: {
      upload: await answer(t.services.images.image(userId, imageId)),
      generation: await answer(t.services.generations.generation(userId, generationId, log)),
      file: await answer(t.services.uploadFallback.fileKey(userId, imageId)),
    },
  };
}

const kept = { listed: { upload: true, output: true }, byId: { upload: 200, generation: 200 } };
const expired = { listed: { upload: false, output: false }, byId: { upload: 404, generation: 404, file: 404 } };

describe('history by plan, as the reads answer it', () => {
  it('keeps 30 days on Starter: a 29-day-old item is there, a 31-day-old one is gone from lists and answers 404 by id', async () => {
    const starter = await seller('starter');
    expect(await visibleAfter(starter, 29)).toMatchObject(kept);
    expect(await visibleAfter(starter, 31)).toEqual(expired);
  });

  it('keeps 30 days without a plan, like Starter', async () => {
    const none = await seller('none');
    expect(await visibleAfter(none, 29)).toMatchObject(kept);
    expect(await visibleAfter(none, 31)).toEqual(expired);
  });

  it('keeps everything on Growth and Pro', async () => {
    for (const plan of ['growth', 'pro'] as const) {
      const userId = await seller(plan);
      expect(await visibleAfter(userId, 3 * 365)).toMatchObject(kept);
    }
  });

  it('hides at once what a Growth seller keeps beyond 30 days when their cancelled plan ends, and shows it again on a new Growth plan', async () => {
    const userId = await seller('growth');
    const imageId = await rows.addUploads(userId, 1).then(([id]) => id!);
    await rows.age('images', [imageId], 60);
    const { subscriptions } = t.deps.repos;
    const row = (await subscriptions.findByUserId(userId))!;
    await subscriptions.update(row.id, {
      status: 'canceled',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: new Date(Date.now() + 86_400_000),
    });
    expect(await answer(t.services.images.image(userId, imageId))).toBe(200);
    await subscriptions.update(row.id, { currentPeriodEnd: new Date(Date.now() - 1000) });
    expect(await answer(t.services.images.image(userId, imageId))).toBe(404);
    await subscribe(userId, 'growth');
    expect(await answer(t.services.images.image(userId, imageId))).toBe(200);
  });

  it('still answers for a generation running past the 30 days, which the purge leaves alone', async () => {
    const starter = await seller('starter');
    const { id } = await rows.addGeneration(starter, 1, 'running');
    await rows.age('generations', [id], 45);
    expect(await answer(t.services.generations.generation(starter, id, log))).toBe(200);
  });

  it('reads the plan in force as historyPlan does: cancelled plans count to the end of their paid period, a renewal being retried keeps its plan', async () => {
    const later = new Date(Date.now() + 86_400_000);
    const earlier = new Date(Date.now() - 86_400_000);
    const cases: { plan: PaidPlanId; patch: SubscriptionPatch }[] = [
      { plan: 'growth', patch: {} },
      { plan: 'pro', patch: { status: 'trialing' } },
      { plan: 'growth', patch: { status: 'canceled', cancelAtPeriodEnd: true, currentPeriodEnd: later } },
      { plan: 'growth', patch: { status: 'canceled', cancelAtPeriodEnd: true, currentPeriodEnd: earlier } },
      { plan: 'pro', patch: { status: 'canceled', cancelAtPeriodEnd: false, currentPeriodEnd: later } },
      { plan: 'growth', patch: { status: 'past_due' } },
      { plan: 'pro', patch: { status: 'unpaid' } },
      { plan: 'growth', patch: { status: 'incomplete_expired' } },
      { plan: 'starter', patch: {} },
    ];
    for (const { plan, patch } of cases) {
      const userId = await t.newUser(0);
      await subscribe(userId, plan, patch);
      const row = await t.deps.repos.subscriptions.findByUserId(userId);
      const imageId = await rows.addUploads(userId, 1).then(([id]) => id!);
      await rows.age('images', [imageId], 45);
      const keepsAll = historyDays(historyPlan(row)) === null;
      if (patch.status === 'past_due' || patch.status === 'unpaid') expect(keepsAll).toBe(true);
      expect(await answer(t.services.images.image(userId, imageId)), `${plan} ${JSON.stringify(patch)}`).toBe(
        keepsAll ? 200 : 404,
      );
    }
  });
});
