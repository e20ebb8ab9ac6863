import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { productPhoto } from '../faults/fault-support.test-support.js';
import { balanceOf, grantCredits, signIn, upload, type Session } from '../seller-client.test-support.js';
import { archiveLink, ArchiveLinkSecret } from '@prodshot/storage';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

/** The IETF RateLimit fields: policy `name` allows `quota` a minute, `remaining` are left, the window ends within it. */
function expectRateLimit(response: LightMyRequestResponse, name: string, quota: number, remaining: number): number {
  expect(response.headers['ratelimit-policy']).toBe(`"${name}";q=${quota};w=60`);
  const field = String(response.headers.ratelimit);
  const [, policy, left, seconds] = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(field) ?? [];
  expect([policy, left], field).toEqual([name, String(remaining)]);
  expect(Number(seconds)).toBeGreaterThan(0);
  expect(Number(seconds)).toBeLessThanOrEqual(60);
  return Number(seconds);
}

/** Past the limit: 429, nothing left, and Retry-After at the window's end. */
function expectLimited(response: LightMyRequestResponse, name: string, quota: number): void {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json()).toMatchObject({
    statusCode: 429,
    code: 'rate_limited',
    message: expect.stringContaining(`you can make ${quota} of these per minute`),
  });
  const seconds = expectRateLimit(response, name, quota, 0);
  expect(Number(response.headers['retry-after'])).toBe(seconds);
}

describe('per-user rate limits', () => {
  it('answers 429 with Retry-After past the generation limit for one user, while another user goes on', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '3' } });
    const busy = await signIn(testApp, 'busy@example.com');
    const other = await signIn(testApp, 'other@example.com');
    // A valid call for an unknown image costs nothing and still goes through the limiter: 404 is the answer under the limit.
    const call = (auth: { authorization: string }) =>
      testApp!.app.inject({
        method: 'POST',
        url: '/api/images/generate-product-shots',
        headers: auth,
        payload: { imageId: crypto.randomUUID(), prompt: 'Wooden table' },
      });
    for (let i = 0; i < 3; i += 1) expect((await call(busy.auth)).statusCode).toBe(404);

    const limited = await call(busy.auth);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({
      statusCode: 429,
      code: 'rate_limited',
      message: expect.stringMatching(/Too many requests: you can make 3 of these per minute/),
    });
    expectLimited(limited, 'generation', 3);
    // Other generation calls share the same budget.
    const smart = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/smart-generate-product-shots',
      headers: busy.auth,
      payload: { imageId: crypto.randomUUID() },
    });
    expect(smart.statusCode).toBe(429);

    expect((await call(other.auth)).statusCode).toBe(404);
    // Reading is never limited.
    expect((await testApp.app.inject({ method: 'GET', url: '/api/images', headers: busy.auth })).statusCode).toBe(200);
  });

  it('limits uploads per user on their own budget', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '2' } });
    const seller = await signIn(testApp, 'uploader@example.com');
    const other = await signIn(testApp, 'uploader2@example.com');
    const notAnImage = Buffer.from('plain text, not a picture');
    for (let i = 0; i < 2; i += 1)
      expect((await upload(testApp, seller, notAnImage, 'note.txt')).statusCode).not.toBe(429);
    const limited = await upload(testApp, seller, notAnImage, 'note.txt');
    expect(limited.statusCode).toBe(429);
    expectLimited(limited, 'upload', 2);
    expect((await upload(testApp, other, notAnImage, 'note.txt')).statusCode).not.toBe(429);
    const generation = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      headers: seller.auth,
      payload: { imageId: crypto.randomUUID(), prompt: 'Wooden table' },
    });
    expect(generation.statusCode).toBe(404);
  });

  it('holds the calls that cost no credits but run the engine to a tighter budget of their own', async () => {
    testApp = await buildTestApp(stack, {
      env: { RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: '2', RATE_LIMIT_GENERATIONS_PER_MINUTE: '5' },
    });
    const seller = await signIn(testApp, 'free-rider@example.com', 'growth');
    const recommend = () =>
      testApp!.app.inject({
        method: 'POST',
        url: '/api/images/generate-product-style-recommendations',
        headers: seller.auth,
        payload: { imageId: crypto.randomUUID() },
      });
    for (let i = 0; i < 2; i += 1) expect((await recommend()).statusCode).toBe(404);
    expectLimited(await recommend(), 'free-engine', 2);
    const enhance = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/enhance-prompt',
      headers: seller.auth,
      payload: { prompt: 'Beach' },
    });
    expect(enhance.statusCode).toBe(429);
    const paid = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      headers: seller.auth,
      payload: { imageId: crypto.randomUUID(), prompt: 'Wooden table' },
    });
    expect(paid.statusCode).toBe(404);
  });

  it('never counts a caller without a session: they get 401 before the limiter', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '1' } });
    for (let i = 0; i < 3; i += 1) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/images/enhance-prompt',
        payload: { prompt: 'x' },
      });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('a batch against the generation limit', () => {
  async function sellerWithPhotos(photos: number): Promise<{ session: Session; imageIds: string[] }> {
    const session = await signIn(testApp!, `batcher-${Date.now()}@example.com`);
    await grantCredits(testApp!, session.userId, 50);
    const imageIds: string[] = [];
    for (let n = 0; n < photos; n += 1)
      imageIds.push((await upload(testApp!, session, await productPhoto(), 'shoe.jpg')).json<{ _id: string }>()._id);
    return { session, imageIds };
  }
  const batchOf = (session: Session, imageIds: string[]) =>
    testApp!.app.inject({
      method: 'POST',
      url: '/api/batches',
      headers: session.auth,
      payload: {
        items: imageIds.map((imageId) => ({ imageId })),
        choice: { mode: 'template', backgroundType: 'studio', count: 1 },
      },
    });

  it('counts every photo, and refuses a batch that does not fit whole: nothing taken, charged or started', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '5' } });
    const { session, imageIds } = await sellerWithPhotos(3);

    const first = await batchOf(session, imageIds);
    expect(first.statusCode, first.body).toBe(202);
    expectRateLimit(first, 'generation', 5, 2);
    expect(await balanceOf(testApp, session.userId)).toBe(47);

    const refused = await batchOf(session, imageIds);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^Too many requests: this batch needs 3 generations and 2 of your 5 per minute are left\. Please try again in \d+ seconds?\.$/,
      ),
    });
    const seconds = expectRateLimit(refused, 'generation', 5, 2);
    expect(Number(refused.headers['retry-after'])).toBe(seconds);
    expect(await balanceOf(testApp, session.userId)).toBe(47);
    expect(
      await testApp.deps.db.selectFrom('batches').select('id').where('user_id', '=', session.userId).execute(),
    ).toHaveLength(1);

    // What the refused batch did not take is still there: two photos fit, then nothing does.
    const smaller = await batchOf(session, imageIds.slice(0, 2));
    expect(smaller.statusCode, smaller.body).toBe(202);
    expectRateLimit(smaller, 'generation', 5, 0);
    expectLimited(
      await testApp.app.inject({
        method: 'POST',
        url: '/api/images/generate-product-shots',
        headers: session.auth,
        payload: { imageId: imageIds[0], prompt: 'Wooden table' },
      }),
      'generation',
      5,
    );
  });
});

describe('the limits of the other costly calls', () => {
  const unknown = () => crypto.randomUUID();

  it('holds more-like-this and style retries to one budget of their own', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_ITERATIONS_PER_MINUTE: '2' } });
    const seller = await signIn(testApp, 'iterator@example.com');
    const more = () =>
      testApp!.app.inject({
        method: 'POST',
        url: `/api/generations/${unknown()}/outputs/0/more-like-this`,
        headers: seller.auth,
      });
    const retry = () =>
      testApp!.app.inject({
        method: 'POST',
        url: `/api/generations/${unknown()}/styles/0/retry`,
        headers: seller.auth,
      });
    const allowed = await more();
    expect(allowed.statusCode).toBe(404);
    expectRateLimit(allowed, 'iteration', 2, 1);
    expect((await retry()).statusCode).toBe(404);
    expectLimited(await retry(), 'iteration', 2);
    expectLimited(await more(), 'iteration', 2);
    // The generation budget is another one.
    expect(
      (
        await testApp.app.inject({
          method: 'POST',
          url: '/api/images/generate-product-shots',
          headers: seller.auth,
          payload: { imageId: unknown(), prompt: 'Wooden table' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('limits exports and compliance reports each on its own budget', async () => {
    testApp = await buildTestApp(stack, {
      env: { RATE_LIMIT_EXPORTS_PER_MINUTE: '1', RATE_LIMIT_COMPLIANCE_CHECKS_PER_MINUTE: '2' },
    });
    const seller = await signIn(testApp, 'exporter@example.com');
    const exportOne = () =>
      testApp!.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: seller.auth,
        payload: { generationId: unknown(), outputIndex: 0, preset: 'etsy', format: 'jpeg' },
      });
    const check = () =>
      testApp!.app.inject({
        method: 'GET',
        url: `/api/generations/${unknown()}/compliance?preset=amazon`,
        headers: seller.auth,
      });
    const exported = await exportOne();
    expect(exported.statusCode).toBe(404);
    expectRateLimit(exported, 'export', 1, 0);
    expectLimited(await exportOne(), 'export', 1);
    for (let i = 0; i < 2; i += 1) expect((await check()).statusCode).toBe(404);
    expectLimited(await check(), 'compliance', 2);
  });

  it('counts archive downloads against the batch owner, by bearer token or signed link alike', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_ARCHIVES_PER_MINUTE: '2' } });
    const owner = await signIn(testApp, 'archivist@example.com');
    const { id } = await testApp.deps.db
      .insertInto('batches')
      .values({ user_id: owner.userId, choice: JSON.stringify({ mode: 'smart', styleCount: 2 }), credits: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    // One photo still running: a batch with nothing in its owner's history answers 404, before it counts.
    await testApp.deps.db
      .insertInto('generations')
      .values({
        user_id: owner.userId,
        image_id: null,
        kind: 'smart',
        request: JSON.stringify({}),
        batch_id: id,
        batch_position: 0,
      })
      .execute();
    const link = archiveLink(await new ArchiveLinkSecret(testApp.deps.redis).get(), id);
    const byToken = () =>
      testApp!.app.inject({ method: 'GET', url: `/api/batches/${id}/archive`, headers: owner.auth });
    const byLink = () => testApp!.app.inject({ method: 'GET', url: link });
    // Nothing finished yet: 409, counted all the same (the zip is what the limit guards, and its lookups).
    const first = await byToken();
    expect(first.statusCode).toBe(409);
    expectRateLimit(first, 'archive', 2, 1);
    expect((await byLink()).statusCode).toBe(409);
    expectLimited(await byToken(), 'archive', 2);
    expectLimited(await byLink(), 'archive', 2);
    // A batch that is not there is refused before it counts.
    expect(
      (await testApp.app.inject({ method: 'GET', url: `/api/batches/${unknown()}/archive`, headers: owner.auth }))
        .statusCode,
    ).toBe(404);
  });

  it('limits the payment calls, each one a call to Stripe, on one budget', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_PAYMENTS_PER_MINUTE: '2' } });
    const payer = await signIn(testApp, 'payer@example.com');
    const portal = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/portal-session',
      headers: payer.auth,
    });
    expect(portal.statusCode).toBe(200);
    expectRateLimit(portal, 'payment', 2, 1);
    expect(
      (await testApp.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: payer.auth }))
        .statusCode,
    ).toBe(404);
    for (const [url, payload] of [
      ['/api/payments/subscription', { planKey: 'starter' }],
      ['/api/payments/credits', { planKey: 'addon-100' }],
      ['/api/payments/portal-session', undefined],
      ['/api/payments/cancel-subscription', undefined],
    ] as const) {
      expectLimited(
        await testApp.app.inject({ method: 'POST', url, headers: payer.auth, ...(payload ? { payload } : {}) }),
        'payment',
        2,
      );
    }
    expect(await balanceOf(testApp, payer.userId)).toBe(0);
    // The plan catalogue is not a payment.
    expect((await testApp.app.inject({ method: 'GET', url: '/api/payments/plans' })).headers.ratelimit).toBeUndefined();
  });
});

describe('the limits of a call made with an API key', () => {
  it("lists the key's own limit beside the route's in both fields, and a 429 of the key's limit carries it with Retry-After", async () => {
    testApp = await buildTestApp(stack, {
      env: { RATE_LIMIT_API_KEY_REQUESTS_PER_MINUTE: '3', RATE_LIMIT_GENERATIONS_PER_MINUTE: '5' },
    });
    const seller = await signIn(testApp, 'integrator@example.com');
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: seller.auth,
      payload: { name: 'Shop', scopes: ['generate', 'read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const auth = { authorization: `Bearer ${created.json<{ key: string }>().key}` };
    const generate = () =>
      testApp!.app.inject({
        method: 'POST',
        url: '/api/images/generate-product-shots',
        headers: auth,
        payload: { imageId: crypto.randomUUID(), prompt: 'Wooden table' },
      });

    const first = await generate();
    expect(first.statusCode, first.body).toBe(404);
    expect(first.headers['ratelimit-policy']).toBe('"api-key";q=3;w=60, "generation";q=5;w=60');
    expect(first.headers.ratelimit).toMatch(/^"api-key";r=2;t=\d+, "generation";r=4;t=\d+$/);
    // A call no route limit covers still counts against the key's.
    const read = await testApp.app.inject({ method: 'GET', url: '/api/images', headers: auth });
    expect(read.statusCode).toBe(200);
    expectRateLimit(read, 'api-key', 3, 1);
    expect((await generate()).headers.ratelimit).toMatch(/^"api-key";r=0;t=\d+, "generation";r=3;t=\d+$/);

    const limited = await generate();
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^Too many requests with this API key: it can make 3 per minute\. Please try again in \d+ seconds?\.$/,
      ),
    });
    const seconds = expectRateLimit(limited, 'api-key', 3, 0);
    expect(Number(limited.headers['retry-after'])).toBe(seconds);
  });
});
