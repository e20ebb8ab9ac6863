import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';
import { ADMIN_AUTH_FAILURES_PER_WINDOW } from './admin-queues.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

const operator = { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'correct-horse-battery' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('bull-board at /admin/queues on the ops listener', () => {
  it('refuses requests without operator credentials or with wrong ones, and serves the board and its API with them', async () => {
    testApp = await buildTestApp(stack, { env: operator });
    const anonymous = await testApp.ops.inject({ method: 'GET', url: '/admin/queues' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic realm=/);
    const wrong = await testApp.ops.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { authorization: basic('ops', 'nope') },
    });
    expect(wrong.statusCode).toBe(401);
    const userOnly = await testApp.ops.inject({
      method: 'GET',
      url: '/admin/queues',
      headers: { authorization: basic('ops', '') },
    });
    expect(userOnly.statusCode).toBe(401);

    const authorization = basic(operator.ADMIN_USER, operator.ADMIN_PASSWORD);
    const page = await testApp.ops.inject({ method: 'GET', url: '/admin/queues', headers: { authorization } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const api = await testApp.ops.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { authorization },
    });
    expect(api.statusCode, api.body).toBe(200);
    const names = api.json<{ queues: { name: string }[] }>().queues.map((queue) => queue.name);
    expect(names.sort()).toEqual(['interactive', 'render', 'webhooks']);
  });

  it('throttles refused credentials per address: past the limit even the right ones get 429 until the window ends', async () => {
    testApp = await buildTestApp(stack, { env: operator });
    const get = (authorization?: string) =>
      testApp!.ops.inject({
        method: 'GET',
        url: '/admin/queues/api/queues',
        ...(authorization ? { headers: { authorization } } : {}),
      });
    // A browser's first request carries no credentials: it is how it learns to ask, not a guess.
    for (let i = 0; i < ADMIN_AUTH_FAILURES_PER_WINDOW + 2; i++) expect((await get()).statusCode).toBe(401);
    expect((await get(basic(operator.ADMIN_USER, operator.ADMIN_PASSWORD))).statusCode).toBe(200);

    for (let i = 0; i < ADMIN_AUTH_FAILURES_PER_WINDOW; i++)
      expect((await get(basic('ops', `guess-${i}`))).statusCode, `guess ${i}`).toBe(401);
    const throttled = await get(basic('ops', 'one-more-guess'));
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(basic(operator.ADMIN_USER, operator.ADMIN_PASSWORD))).statusCode).toBe(429);
  });

  it('is not mounted at all when no operator credentials are configured', async () => {
    testApp = await buildTestApp(stack);
    for (const url of ['/admin/queues', '/admin/queues/api/queues']) {
      const response = await testApp.ops.inject({
        method: 'GET',
        url,
        headers: { authorization: basic('ops', 'correct-horse-battery') },
      });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
