import { afterEach, describe, expect, inject, it } from 'vitest';
import { signIn, upload } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

describe('per-user rate limits', () => {
  it('answers 429 with Retry-After past the generation limit for one user, while another user goes on', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '3' } });
    const busy = await signIn(testApp, 'busy@example.com');
    const other = await signIn(testApp, 'other@example.com');
    // A valid call for an unknown image costs nothing and still goes through the limiter: 404 is the answer under the limit.
    const call = (auth: { authorization: string }) =>
      testApp!.app.inject({ method: 'POST', url: '/api/images/generate-product-shots', headers: auth, payload: { imageId: crypto.randomUUID(), prompt: 'Wooden table' } });
    for (let i = 0; i < 3; i += 1) expect((await call(busy.auth)).statusCode).toBe(404);

    const limited = await call(busy.auth);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ statusCode: 429, code: 'rate_limited', message: expect.stringMatching(/Too many requests: you can make 3 of these per minute/) });
    // Other generation calls share the same budget.
    const smart = await testApp.app.inject({ method: 'POST', url: '/api/images/smart-generate-product-shots', headers: busy.auth, payload: { imageId: crypto.randomUUID() } });
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
    for (let i = 0; i < 2; i += 1) expect((await upload(testApp, seller, notAnImage, 'note.txt')).statusCode).not.toBe(429);
    const limited = await upload(testApp, seller, notAnImage, 'note.txt');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
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
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: '2', RATE_LIMIT_GENERATIONS_PER_MINUTE: '5' } });
    const seller = await signIn(testApp, 'free-rider@example.com', 'growth');
    const recommend = () =>
      testApp!.app.inject({ method: 'POST', url: '/api/images/generate-product-style-recommendations', headers: seller.auth, payload: { imageId: crypto.randomUUID() } });
    for (let i = 0; i < 2; i += 1) expect((await recommend()).statusCode).toBe(404);
    expect((await recommend()).statusCode).toBe(429);
    const enhance = await testApp.app.inject({ method: 'POST', url: '/api/images/enhance-prompt', headers: seller.auth, payload: { prompt: 'Beach' } });
    expect(enhance.statusCode).toBe(429);
    const paid = await testApp.app.inject({ method: 'POST', url: '/api/images/generate-product-shots', headers: seller.auth, payload: { imageId: crypto.randomUUID(), prompt: 'Wooden table' } });
    expect(paid.statusCode).toBe(404);
  });

  it('never counts a caller without a session: they get 401 before the limiter', async () => {
    testApp = await buildTestApp(stack, { env: { RATE_LIMIT_GENERATIONS_PER_MINUTE: '1' } });
    for (let i = 0; i < 3; i += 1) {
      const response = await testApp.app.inject({ method: 'POST', url: '/api/images/enhance-prompt', payload: { prompt: 'x' } });
      expect(response.statusCode).toBe(401);
    }
  });
});
