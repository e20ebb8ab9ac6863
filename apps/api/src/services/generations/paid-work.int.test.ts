import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IDEMPOTENCY_KEY_REUSED_MESSAGE } from '@prodshot/contracts';
import { startRestartableRedis, type RestartableRedis } from '@prodshot/testing';
import { buildTestServices, keyClaim, refusal, type TestServices } from '../service-deps.test-support.js';

/**
 * Paid work (paid-work.ts) as the starts use it: credits reserved, the Idempotency-Key claimed and
 * the job enqueued as one layer, with the undo when Redis refuses. How the route reads the key and
 * answers (400 for a malformed key, the statuses) is routes/images/idempotency.int.test.ts.
 */
const stack = inject('stack');
let t: TestServices;

beforeAll(async () => {
  t = await buildTestServices(stack);
});
afterAll(async () => {
  await t.close();
});

async function generationsOf(services: TestServices, userId: string): Promise<string[]> {
  const rows = await services.deps.db.selectFrom('generations').select('id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.id);
}

async function slotsOf(services: TestServices, generationId: string) {
  return services.deps.db
    .selectFrom('generation_styles')
    .select(['index', 'status'])
    .where('generation_id', '=', generationId)
    .orderBy('index')
    .execute();
}

function announcedTo(services: TestServices, userId: string): number[] {
  return services.creditsChanged
    .filter((change) => change.userId === userId)
    .map(({ balance }) => balance.subscriptionCredits + balance.addOnCredits);
}

describe('PaidWork: one start per Idempotency-Key', () => {
  it('answers a repeat with the first generation and charges once, even when the repeats race', async () => {
    const userId = await t.newUser(10);
    const { imageId } = await t.newUpload(userId);
    const body = { imageId, styleCount: 4 };
    const claim = keyClaim(userId, body, 'click-1');
    const started = await Promise.all(
      Array.from({ length: 6 }, () => t.services.shots.startSmart(userId, body, claim)),
    );
    expect(new Set(started.map((s) => s.generationId)).size).toBe(1);
    expect(await t.balance(userId)).toBe(6);
    expect(await generationsOf(t, userId)).toHaveLength(1);

    const later = await t.services.shots.startSmart(userId, body, claim);
    expect(later.generationId).toBe(started[0]!.generationId);
    expect(await t.balance(userId)).toBe(6);
  });

  it('answers a repeat with the first generation even once its photo is deleted, and charges nothing more', async () => {
    const userId = await t.newUser(4);
    const { imageId } = await t.newUpload(userId);
    const body = { imageId, backgroundType: 'studio' as const, count: 2 };
    const claim = keyClaim(userId, body, 'sent-twice');
    const first = await t.services.shots.startManual(userId, body, claim);
    await t.services.images.delete(userId, imageId);

    const repeat = await t.services.shots.startManual(userId, body, claim);
    expect(repeat.generationId).toBe(first.generationId);
    expect(await t.balance(userId)).toBe(2);
  });

  it('refuses the same key with another request, of the same start or another, (422) charging nothing', async () => {
    const userId = await t.newUser(5);
    const { imageId } = await t.newUpload(userId);
    const studio = { imageId, backgroundType: 'studio' as const, count: 1 };
    await t.services.shots.startManual(userId, studio, keyClaim(userId, studio, 'key-a'));
    const marble = { imageId, backgroundType: 'marble' as const, count: 1 };
    const other = await refusal(t.services.shots.startManual(userId, marble, keyClaim(userId, marble, 'key-a')));
    expect(other).toMatchObject({
      statusCode: 422,
      code: 'idempotency_key_reused',
      message: IDEMPOTENCY_KEY_REUSED_MESSAGE,
    });
    const removal = t.services.shots.startRemoveBackground(userId, imageId, undefined, keyClaim(userId, {}, 'key-a'));
    expect(await refusal(removal)).toMatchObject({ statusCode: 422, code: 'idempotency_key_reused' });
    expect(await t.balance(userId)).toBe(4);
    expect(await generationsOf(t, userId)).toHaveLength(1);
  });

  it('keeps keys per user, and starts new work for a new key', async () => {
    const me = await t.newUser(2);
    const other = await t.newUser(2);
    const mine = await t.newUpload(me);
    const theirs = await t.newUpload(other);
    const body = { backgroundType: 'studio' as const };
    const myStart = await t.services.shots.startGenerateBackground(
      me,
      mine.imageId,
      body,
      keyClaim(me, body, 'shared-key'),
    );
    const theirStart = await t.services.shots.startGenerateBackground(
      other,
      theirs.imageId,
      body,
      keyClaim(other, body, 'shared-key'),
    );
    expect(theirStart.generationId).not.toBe(myStart.generationId);
    const fresh = await t.services.shots.startGenerateBackground(
      me,
      mine.imageId,
      body,
      keyClaim(me, body, 'another-key'),
    );
    expect(fresh.generationId).not.toBe(myStart.generationId);
    expect(await t.balance(me)).toBe(0);
  });

  it('lets a key refused for want of credits be used again once the seller has them', async () => {
    const userId = await t.newUser(0);
    const { imageId } = await t.newUpload(userId);
    const body = { imageId, styleCount: 2 };
    const claim = keyClaim(userId, body, 'buy-first');
    expect(await refusal(t.services.shots.startSmart(userId, body, claim))).toMatchObject({ statusCode: 402 });
    await t.deps.repos.credits.grantAddOn({ userId, amount: 2, idempotencyKey: `later:${userId}` });
    await t.services.shots.startSmart(userId, body, claim);
    expect(await t.balance(userId)).toBe(0);
    expect(await generationsOf(t, userId)).toHaveLength(1);
  });
});

describe('PaidWork: single styles on a generation', () => {
  async function recommendations(userId: string, imageId: string): Promise<string> {
    return (await t.services.shots.startStyle(userId, { imageId })).generationId;
  }
  const style = (generationId: string, imageId: string, styleIndex: number) => ({
    generationId,
    imageId,
    styleIndex,
    styleName: `Style ${styleIndex}`,
    stylePrompt: 'a studio',
  });

  it('costs exactly 1 credit, nothing when repeated, and 402 with no slot when credits are short', async () => {
    const userId = await t.newUser(1);
    const { imageId } = await t.newUpload(userId);
    const generationId = await recommendations(userId, imageId);
    await t.services.shots.startSingle(userId, style(generationId, imageId, 0));
    expect(await t.balance(userId)).toBe(0);
    await t.services.shots.startSingle(userId, style(generationId, imageId, 0));
    expect(await t.balance(userId)).toBe(0);
    const short = await refusal(t.services.shots.startSingle(userId, style(generationId, imageId, 1)));
    expect(short).toMatchObject({ statusCode: 402, code: 'insufficient_credits' });
    expect((await slotsOf(t, generationId)).map((s) => s.index)).toEqual([0]);
  });

  it("holds each call's key, for a paid style and for one already there alike: a replay answers the same generation, another request with the key is refused (422)", async () => {
    const userId = await t.newUser(2);
    const { imageId } = await t.newUpload(userId);
    const generationId = await recommendations(userId, imageId);
    const shot = (index: number, key: string) => {
      const body = style(generationId, imageId, index);
      return t.services.shots.startSingle(userId, body, keyClaim(userId, body, key));
    };
    const paid = await shot(0, 'style-0');
    expect(await shot(0, 'style-0')).toEqual(paid);
    const again = await shot(0, 'style-0-again');
    expect(await shot(0, 'style-0-again')).toEqual(again);
    expect(await t.balance(userId)).toBe(1);

    expect(await refusal(shot(1, 'style-0'))).toMatchObject({ statusCode: 422, code: 'idempotency_key_reused' });
    expect(await refusal(shot(1, 'style-0-again'))).toMatchObject({ statusCode: 422, code: 'idempotency_key_reused' });
    expect((await slotsOf(t, generationId)).map((s) => s.index)).toEqual([0]);
    expect(await t.balance(userId)).toBe(1);
  });

  it('reopens a generation that had settled when a seller pays for another style on it', async () => {
    const userId = await t.newUser(1);
    const { imageId } = await t.newUpload(userId);
    const generationId = await recommendations(userId, imageId);
    await t.deps.db
      .updateTable('generations')
      .set({ status: 'complete', completed_at: new Date() })
      .where('id', '=', generationId)
      .execute();
    await t.services.shots.startSingle(userId, style(generationId, imageId, 2));
    const generation = await t.deps.db
      .selectFrom('generations')
      .select(['status', 'completed_at'])
      .where('id', '=', generationId)
      .executeTakeFirstOrThrow();
    expect(generation).toEqual({ status: 'running', completed_at: null });
  });
});

/**
 * Redis refusing for real: the services run against a Redis of their own, stopped and started
 * again, as an outage would leave the producer's connection.
 */
describe('PaidWork: a refused enqueue (Redis down)', () => {
  let redis: RestartableRedis;
  let down: TestServices;
  beforeAll(async () => {
    redis = await startRestartableRedis();
    down = await buildTestServices({ ...stack, redisUrl: redis.url });
  });
  afterAll(async () => {
    await down.close();
    await redis.close();
  });

  it('a call that holds no credits (style recommendations) announces no balance and counts no reservation, whether Redis takes its job or refuses it', async () => {
    const userId = await down.newUser(3);
    const { imageId } = await down.newUpload(userId);
    const reservedBefore = down.creditsReserved.length;
    await down.services.shots.startStyle(userId, { imageId });
    await redis.stop();
    try {
      await expect(down.services.shots.startStyle(userId, { imageId })).rejects.toThrow();
    } finally {
      await redis.restart();
    }
    // The first balance announced is the paid call's: the two free calls announced nothing before it.
    await down.services.shots.startManual(userId, { imageId, backgroundType: 'studio', count: 1 });
    expect(announcedTo(down, userId)).toEqual([2]);
    expect(down.creditsReserved.slice(reservedBefore)).toEqual([1]);
  }, 60_000);

  it('refunds exactly the work that call opened, and frees its key for a retry', async () => {
    const userId = await down.newUser(6);
    const { imageId } = await down.newUpload(userId);
    const rendering = (await down.services.shots.startManual(userId, { imageId, backgroundType: 'studio', count: 2 }))
      .generationId;
    expect(await down.balance(userId)).toBe(4);

    await redis.stop();
    const marble = { imageId, backgroundType: 'marble' as const, count: 3 };
    const claim = keyClaim(userId, marble, 'retry-me');
    try {
      await expect(down.services.shots.startManual(userId, marble, claim)).rejects.toThrow();
      // A single style on the generation still rendering: only that new slot is failed and refunded.
      const single = { generationId: rendering, imageId, styleIndex: 5, styleName: 'Beach', stylePrompt: 'a beach' };
      await expect(down.services.shots.startSingle(userId, single)).rejects.toThrow();
      // A call for a style already there opened nothing: its refusal fails nothing.
      const existing = { ...single, styleIndex: 0, styleName: 'Studio', stylePrompt: 'a studio' };
      await expect(down.services.shots.startSingle(userId, existing)).rejects.toThrow();
    } finally {
      await redis.restart();
    }
    expect(await down.balance(userId)).toBe(4);
    expect(await slotsOf(down, rendering)).toEqual([
      { index: 0, status: 'queued' },
      { index: 1, status: 'queued' },
      { index: 5, status: 'failed' },
    ]);
    const abandoned = await down.deps.db
      .selectFrom('generations')
      .select(['status', 'error'])
      .where('user_id', '=', userId)
      .where('id', '!=', rendering)
      .execute();
    expect(abandoned).toEqual([
      { status: 'failed', error: 'The generation could not be queued. Your credits were refunded.' },
    ]);

    await down.services.shots.startManual(userId, marble, claim);
    expect(await down.balance(userId)).toBe(1);
  }, 60_000);
});
