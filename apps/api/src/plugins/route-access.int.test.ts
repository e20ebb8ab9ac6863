import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';
import { namedRoutes } from './route-access.js';

const stack = inject('stack');
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
});
afterAll(async () => {
  await testApp.close();
});

describe('the one authenticated scope', () => {
  it('names only routes the app has (Stripe’s own route exists with the Stripe provider only)', () => {
    const missing = namedRoutes()
      .filter(({ method, url }) => !testApp.app.hasRoute({ method: method as 'GET', url }))
      .map(({ method, url }) => `${method} ${url}`);
    expect(missing).toEqual(['POST /api/webhooks/stripe']);
  });

  it('asks a signed-out caller to sign in on a route it does not name, before reading its body', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      headers: { 'content-type': 'application/json' },
      payload: '{ not json',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('lets anyone reach a public route and keeps a session-only route from a signed-out caller', async () => {
    expect((await testApp.app.inject({ method: 'GET', url: '/api/payments/plans' })).statusCode).toBe(200);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/keys' })).statusCode).toBe(401);
  });
});
