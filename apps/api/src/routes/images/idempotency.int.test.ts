import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IDEMPOTENCY_KEY_REUSED_MESSAGE } from '@prodshot/contracts';
import { startRestartableRedis, type RestartableRedis } from '@prodshot/testing';
import { productPhoto } from '../../faults/fault-support.test-support.js';
import {
  balanceOf,
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

/**
 * What the route does with the Idempotency-Key header: reads it (400 when malformed) and makes one
 * claim of the route and the body. What a claim does to the work, the credits and the queue
 * (repeats, races, refusals, Redis down) is services/generations/paid-work.int.test.ts.
 */
describe('Idempotency-Key on paid calls', () => {
  it('claims the key for the route and body: a repeat answers 202 with the first generation, another body or another route under the key 422', async () => {
    await grantCredits(testApp, session.userId, 5);
    const before = await balanceOf(testApp, session.userId);
    const first = await post(
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'studio', count: 1 },
      'key-a',
    );
    expect(first.statusCode, first.body).toBe(202);
    const repeat = await post(
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'studio', count: 1 },
      'key-a',
    );
    expect(repeat.statusCode, repeat.body).toBe(202);
    expect(repeat.json().data.generationId).toBe(first.json().data.generationId);
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

  it('refuses a malformed key with 400', async () => {
    const response = await post(
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'studio' },
      'k'.repeat(201),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_idempotency_key');
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

describe('a refused enqueue (Redis down)', () => {
  let redis: RestartableRedis;
  let app: TestApp;
  beforeAll(async () => {
    redis = await startRestartableRedis();
    app = await buildTestApp(stack, { redisUrl: redis.url });
  });
  afterAll(async () => {
    await app.close();
    await redis.close();
  });

  // What the refusal undoes (slots, credits, the key) is paid-work.int.test.ts; here, what the seller is answered.
  it('answers 503 while Redis refuses the job, and 202 to the retry with the same key once it is back', async () => {
    const user = await signIn(app, 'redis-down@example.com');
    await grantCredits(app, user.userId, 3);
    const image = (await upload(app, user, await productPhoto(), 'box.jpg')).json()._id;
    const send = () =>
      app.app.inject({
        method: 'POST',
        url: '/api/images/generate-product-shots',
        payload: { imageId: image, backgroundType: 'marble', count: 3 },
        headers: { ...user.auth, prefer: 'respond-async', 'idempotency-key': 'retry-me' },
      });
    await redis.stop();
    try {
      const refused = await send();
      expect(refused.statusCode).toBe(503);
      expect(refused.json().code).toBe('service_unavailable');
    } finally {
      await redis.restart();
    }
    const retried = await send();
    expect(retried.statusCode, retried.body).toBe(202);
    expect(await balanceOf(app, user.userId)).toBe(0);
  }, 60_000);
});
