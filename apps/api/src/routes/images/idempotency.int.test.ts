import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_REUSED_MESSAGE } from '@prodshot/contracts';
import { freePort, startEmbeddedRedis, type RunningRedis } from '@prodshot/embedded';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import {
  announcedBalances,
  balanceOf,
  connectSocket,
  creditsReservedTotal,
  eventually,
  grantCredits,
  multipartBody,
  signIn,
  upload,
  type Session,
} from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let session: Session;
let imageId: string;

beforeAll(async () => {
  testApp = await buildTestApp(stack, {
    listen: true,
    env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '1000', RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' },
  });
  session = await signIn(testApp, 'idempotent@example.com');
  imageId = (await upload(testApp, session, await productPhoto(), 'box.jpg')).json()._id;
});
afterAll(() => testApp.close());

function post(url: string, payload: object, key?: string, who: Session = session) {
  return testApp.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...who.auth, prefer: 'respond-async', ...(key ? { 'idempotency-key': key } : {}) },
  });
}

async function generationsOf(userId: string) {
  return testApp.deps.db.selectFrom('generations').select('id').where('user_id', '=', userId).execute();
}

describe('Idempotency-Key on paid calls', () => {
  it('answers a repeat with the first generation and charges once, even when the repeats race', async () => {
    const user = await signIn(testApp, 'double-click@example.com');
    await grantCredits(testApp, user.userId, 10);
    const image = (await upload(testApp, user, await productPhoto('#a43'), 'box.jpg')).json()._id;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        post('/api/images/smart-generate-product-shots', { imageId: image, styleCount: 4 }, 'click-1', user),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(6).fill(202));
    expect(new Set(responses.map((r) => r.json().data.generationId)).size).toBe(1);
    expect(await balanceOf(testApp, user.userId)).toBe(6);
    expect(await generationsOf(user.userId)).toHaveLength(1);

    const later = await post(
      '/api/images/smart-generate-product-shots',
      { imageId: image, styleCount: 4 },
      'click-1',
      user,
    );
    expect(later.json().data.generationId).toBe(responses[0]!.json().data.generationId);
    expect(await balanceOf(testApp, user.userId)).toBe(6);
  });

  it('answers a repeat with the first generation even once its photo is deleted, and charges nothing more', async () => {
    const user = await signIn(testApp, 'retry-after-delete@example.com');
    await grantCredits(testApp, user.userId, 4);
    const image = (await upload(testApp, user, await productPhoto('#3a4'), 'box.jpg')).json()._id;
    const first = await post(
      '/api/images/generate-product-shots',
      { imageId: image, backgroundType: 'studio', count: 2 },
      'sent-twice',
      user,
    );
    expect(first.statusCode, first.body).toBe(202);
    const deleted = await testApp.app.inject({ method: 'DELETE', url: `/api/images/${image}`, headers: user.auth });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const repeat = await post(
      '/api/images/generate-product-shots',
      { imageId: image, backgroundType: 'studio', count: 2 },
      'sent-twice',
      user,
    );
    expect(repeat.statusCode, repeat.body).toBe(202);
    expect(repeat.json().data.generationId).toBe(first.json().data.generationId);
    expect(await balanceOf(testApp, user.userId)).toBe(2);
  });

  it('refuses the same key with another request (422), charging nothing', async () => {
    await grantCredits(testApp, session.userId, 5);
    const before = await balanceOf(testApp, session.userId);
    expect(
      (await post('/api/images/generate-product-shots', { imageId, backgroundType: 'studio', count: 1 }, 'key-a'))
        .statusCode,
    ).toBe(202);
    const other = await post(
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'marble', count: 1 },
      'key-a',
    );
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'idempotency_key_reused', message: IDEMPOTENCY_KEY_REUSED_MESSAGE });
    expect((await post(`/api/images/${imageId}/remove-background`, {}, 'key-a')).statusCode).toBe(422);
    expect(await balanceOf(testApp, session.userId)).toBe(before - 1);
  });

  it('keeps keys per user, and starts new work for a new key', async () => {
    const other = await signIn(testApp, 'someone-else@example.com');
    await grantCredits(testApp, other.userId, 2);
    await grantCredits(testApp, session.userId, 2);
    const otherImage = (await upload(testApp, other, await productPhoto('#36c'), 'box.jpg')).json()._id;
    const mine = await post(`/api/images/${imageId}/generate-background`, { backgroundType: 'studio' }, 'shared-key');
    const theirs = await post(
      `/api/images/${otherImage}/generate-background`,
      { backgroundType: 'studio' },
      'shared-key',
      other,
    );
    expect(mine.statusCode).toBe(202);
    expect(theirs.statusCode).toBe(202);
    expect(theirs.json().data.generationId).not.toBe(mine.json().data.generationId);
    const fresh = await post(`/api/images/${imageId}/generate-background`, { backgroundType: 'studio' }, 'another-key');
    expect(fresh.json().data.generationId).not.toBe(mine.json().data.generationId);
  });

  it('refuses a malformed key with 400', async () => {
    const response = await post(
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'studio' },
      'k'.repeat(201),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_idempotency_key');
  });

  it('lets a key refused for want of credits be used again once the seller has them', async () => {
    const user = await signIn(testApp, 'broke@example.com');
    const image = (await upload(testApp, user, await productPhoto(), 'box.jpg')).json()._id;
    expect(
      (await post('/api/images/smart-generate-product-shots', { imageId: image, styleCount: 2 }, 'buy-first', user))
        .statusCode,
    ).toBe(402);
    await grantCredits(testApp, user.userId, 2);
    expect(
      (await post('/api/images/smart-generate-product-shots', { imageId: image, styleCount: 2 }, 'buy-first', user))
        .statusCode,
    ).toBe(202);
    expect(await balanceOf(testApp, user.userId)).toBe(0);
  });
});

function uploadWithKey(user: Session, bytes: Buffer, key: string) {
  const body = multipartBody([{ name: 'image', filename: 'mug.jpg', contentType: 'image/jpeg', data: bytes }]);
  return testApp.app.inject({
    method: 'POST',
    url: '/api/images/upload',
    payload: body.payload,
    headers: { ...body.headers, ...user.auth, 'idempotency-key': key },
  });
}

describe('Idempotency-Key on uploads', () => {
  it('stores a repeated upload once and answers with the same image', async () => {
    const user = await signIn(testApp, 'uploader@example.com');
    const photo = await productPhoto('#c4a');
    const first = await uploadWithKey(user, photo, 'drop-1');
    const again = await uploadWithKey(user, photo, 'drop-1');
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()._id).toBe(first.json()._id);
    expect((await uploadWithKey(user, await productPhoto('#123'), 'drop-1')).statusCode).toBe(422);
    const images = await testApp.deps.db.selectFrom('images').select('id').where('user_id', '=', user.userId).execute();
    expect(images).toHaveLength(1);
  });
});

describe('single styles on a generation', () => {
  async function recommendations(user: Session, image: string): Promise<string> {
    const response = await post(
      '/api/images/generate-product-style-recommendations',
      { imageId: image },
      undefined,
      user,
    );
    expect(response.statusCode).toBe(202);
    return response.json().data.generationId;
  }
  const style = (generationId: string, styleIndex: number) => ({
    generationId,
    imageId,
    styleIndex,
    styleName: `Style ${styleIndex}`,
    stylePrompt: 'a studio',
  });

  it('costs exactly 1 credit, nothing when repeated, and 402 with no slot when credits are short', async () => {
    const user = await signIn(testApp, 'single@example.com');
    await grantCredits(testApp, user.userId, 1);
    const image = (await upload(testApp, user, await productPhoto(), 'box.jpg')).json()._id;
    const generationId = await recommendations(user, image);
    const shot = (index: number) =>
      post(
        '/api/images/generate-single-product-shot',
        { ...style(generationId, index), imageId: image },
        undefined,
        user,
      );
    expect((await shot(0)).statusCode).toBe(202);
    expect(await balanceOf(testApp, user.userId)).toBe(0);
    expect((await shot(0)).statusCode).toBe(202);
    expect(await balanceOf(testApp, user.userId)).toBe(0);
    const short = await shot(1);
    expect(short.statusCode).toBe(402);
    const slots = await testApp.deps.db
      .selectFrom('generation_styles')
      .select('index')
      .where('generation_id', '=', generationId)
      .execute();
    expect(slots.map((s) => s.index)).toEqual([0]);
  });

  it("holds each call's key, for a paid style and for one already there alike: a replay answers the same generation, another request with the key is refused (422)", async () => {
    const user = await signIn(testApp, 'single-keys@example.com');
    await grantCredits(testApp, user.userId, 2);
    const image = (await upload(testApp, user, await productPhoto(), 'box.jpg')).json()._id;
    const generationId = await recommendations(user, image);
    const shot = (index: number, key: string) =>
      post('/api/images/generate-single-product-shot', { ...style(generationId, index), imageId: image }, key, user);
    const paid = await shot(0, 'style-0');
    expect(paid.statusCode).toBe(202);
    expect((await shot(0, 'style-0')).json()).toEqual(paid.json());
    const again = await shot(0, 'style-0-again');
    expect(again.statusCode).toBe(202);
    expect((await shot(0, 'style-0-again')).json()).toEqual(again.json());
    expect(await balanceOf(testApp, user.userId)).toBe(1);

    expect((await shot(1, 'style-0')).statusCode).toBe(422);
    expect((await shot(1, 'style-0-again')).statusCode).toBe(422);
    const slots = await testApp.deps.db
      .selectFrom('generation_styles')
      .select('index')
      .where('generation_id', '=', generationId)
      .execute();
    expect(slots.map((s) => s.index)).toEqual([0]);
    expect(await balanceOf(testApp, user.userId)).toBe(1);
  });

  it('reopens a generation that had settled when a seller pays for another style on it', async () => {
    const user = await signIn(testApp, 'reopen@example.com');
    await grantCredits(testApp, user.userId, 1);
    const image = (await upload(testApp, user, await productPhoto(), 'box.jpg')).json()._id;
    const generationId = await recommendations(user, image);
    await testApp.deps.db
      .updateTable('generations')
      .set({ status: 'complete', completed_at: new Date() })
      .where('id', '=', generationId)
      .execute();
    expect(
      (
        await post(
          '/api/images/generate-single-product-shot',
          { ...style(generationId, 2), imageId: image },
          undefined,
          user,
        )
      ).statusCode,
    ).toBe(202);
    const generation = await testApp.deps.db
      .selectFrom('generations')
      .select(['status', 'completed_at'])
      .where('id', '=', generationId)
      .executeTakeFirstOrThrow();
    expect(generation).toEqual({ status: 'running', completed_at: null });
  });
});

describe('a call that holds no credits (style recommendations)', () => {
  it('announces no balance and counts no reservation, whether Redis takes its job or refuses it (503)', async () => {
    const user = await signIn(testApp, 'holds-nothing@example.com');
    await grantCredits(testApp, user.userId, 3);
    const image = (await upload(testApp, user, await productPhoto(), 'box.jpg')).json()._id;
    const { socket, events } = await connectSocket(testApp, user.token);
    try {
      const before = await creditsReservedTotal(testApp);
      const queued = await post(
        '/api/images/generate-product-style-recommendations',
        { imageId: image },
        undefined,
        user,
      );
      expect(queued.statusCode, queued.body).toBe(202);
      const refusing = vi.spyOn(testApp.deps.producer, 'enqueue').mockRejectedValue(new Error('Connection is closed.'));
      try {
        const refused = await post(
          '/api/images/generate-product-style-recommendations',
          { imageId: image },
          undefined,
          user,
        );
        expect(refused.statusCode, refused.body).toBe(503);
      } finally {
        refusing.mockRestore();
      }
      // The first balance announced is the paid call's: the two free calls announced nothing before it.
      expect(
        (
          await post(
            '/api/images/generate-product-shots',
            { imageId: image, backgroundType: 'studio', count: 1 },
            undefined,
            user,
          )
        ).statusCode,
      ).toBe(202);
      await eventually(() => announcedBalances(events).length > 0, 5_000, 'the charge announced');
      expect(announcedBalances(events)).toEqual([2]);
      expect(await creditsReservedTotal(testApp)).toBe(before + 1);
    } finally {
      socket.disconnect();
    }
  });
});

describe('a refused enqueue (Redis down)', () => {
  let redis: RunningRedis;
  let restartRedis: () => Promise<void>;
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prodshot-enqueue-'));
    const options = { dataDir: path.join(dir, 'redis'), port: await freePort() };
    redis = await startEmbeddedRedis(options);
    restartRedis = async () => {
      redis = await startEmbeddedRedis(options);
    };
    app = await buildTestApp(stack, { redisUrl: redis.url });
  });
  afterAll(async () => {
    await app.close();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refunds exactly the work that call opened, and frees its key for a retry', async () => {
    const user = await signIn(app, 'redis-down@example.com');
    await grantCredits(app, user.userId, 6);
    const image = (await upload(app, user, await productPhoto(), 'box.jpg')).json()._id;
    const send = (url: string, payload: object, key?: string) =>
      app.app.inject({
        method: 'POST',
        url,
        payload,
        headers: { ...user.auth, prefer: 'respond-async', ...(key ? { 'idempotency-key': key } : {}) },
      });
    const started = await send('/api/images/generate-product-shots', {
      imageId: image,
      backgroundType: 'studio',
      count: 2,
    });
    expect(started.statusCode).toBe(202);
    const rendering = started.json().data.generationId as string;
    expect(await balanceOf(app, user.userId)).toBe(4);

    await redis.stop();
    const refused = await send(
      '/api/images/generate-product-shots',
      { imageId: image, backgroundType: 'marble', count: 3 },
      'retry-me',
    );
    expect(refused.statusCode).toBe(503);
    // A single style on the generation still rendering: only that new slot is failed and refunded.
    const single = await send('/api/images/generate-single-product-shot', {
      generationId: rendering,
      imageId: image,
      styleIndex: 5,
      styleName: 'Beach',
      stylePrompt: 'a beach',
    });
    expect(single.statusCode).toBe(503);
    // A call for a style already there opened nothing: its refusal fails nothing.
    const existing = await send('/api/images/generate-single-product-shot', {
      generationId: rendering,
      imageId: image,
      styleIndex: 0,
      styleName: 'Studio',
      stylePrompt: 'a studio',
    });
    expect(existing.statusCode).toBe(503);
    expect(await balanceOf(app, user.userId)).toBe(4);
    const slots = await app.deps.db
      .selectFrom('generation_styles')
      .select(['index', 'status'])
      .where('generation_id', '=', rendering)
      .orderBy('index')
      .execute();
    expect(slots).toEqual([
      { index: 0, status: 'queued' },
      { index: 1, status: 'queued' },
      { index: 5, status: 'failed' },
    ]);
    const abandoned = await app.deps.db
      .selectFrom('generations')
      .select(['status', 'error'])
      .where('user_id', '=', user.userId)
      .where('id', '!=', rendering)
      .execute();
    expect(abandoned).toEqual([
      { status: 'failed', error: 'The generation could not be queued. Your credits were refunded.' },
    ]);

    await restartRedis();
    const retried = await send(
      '/api/images/generate-product-shots',
      { imageId: image, backgroundType: 'marble', count: 3 },
      'retry-me',
    );
    expect(retried.statusCode).toBe(202);
    expect(await balanceOf(app, user.userId)).toBe(1);
  }, 60_000);
});
