import { afterEach, describe, expect, inject, it } from 'vitest';
import { balanceOf, signIn } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

/** How a client reaches the app: straight from an address, or through a same-host proxy that says whom it forwards for. */
type Route = { remoteAddress?: string; forwardedFor?: string };
const PUBLIC = '203.0.113.7';

function signInFrom(app: TestApp, route: Route) {
  return app.app.inject({
    method: 'POST',
    url: '/api/dev/sign-in',
    payload: { email: 'tunnel@example.com', name: 'Tunnel' },
    ...(route.remoteAddress ? { remoteAddress: route.remoteAddress } : {}),
    headers: route.forwardedFor ? { 'x-forwarded-for': route.forwardedFor } : {},
  });
}

describe('the keyless modes check every request', () => {
  it('refuse the embedded sign-in to a client forwarded for a public address, naming ALLOW_EMBEDDED_AUTH', async () => {
    testApp = await buildTestApp(stack);
    for (const route of [
      { forwardedFor: PUBLIC },
      { forwardedFor: `${PUBLIC}, 127.0.0.1` },
      { remoteAddress: PUBLIC },
      { remoteAddress: '10.0.0.5' },
      { forwardedFor: '::1, 192.168.1.20' },
    ]) {
      const refused = await signInFrom(testApp, route);
      expect(refused.statusCode, JSON.stringify(route)).toBe(403);
      expect(refused.json()).toMatchObject({
        statusCode: 403,
        code: 'loopback_only',
        message:
          'The embedded sign-in (anyone signs in as any email) answers on this machine only: set CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY, or ALLOW_EMBEDDED_AUTH=true for a trial',
      });
    }
    expect(await testApp.deps.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('serve loopback clients, straight or through a local proxy forwarding for loopback', async () => {
    testApp = await buildTestApp(stack);
    for (const route of [
      {},
      { forwardedFor: '127.0.0.1' },
      { remoteAddress: '::1', forwardedFor: '::1, 127.0.0.2' },
      { remoteAddress: '::ffff:127.0.0.1' },
    ]) {
      const response = await signInFrom(testApp, route);
      expect(response.statusCode, `${JSON.stringify(route)}: ${response.body}`).toBe(200);
    }
  });

  it('read what a loopback proxy forwards for even when TRUST_PROXY believes no proxy', async () => {
    testApp = await buildTestApp(stack, { env: { TRUST_PROXY: 'false' } });
    expect((await signInFrom(testApp, { forwardedFor: PUBLIC })).statusCode).toBe(403);
    expect((await signInFrom(testApp, {})).statusCode).toBe(200);
  });

  it('refuse the local payments to a client beyond loopback, naming ALLOW_LOCAL_PAYMENTS, and grant nothing', async () => {
    testApp = await buildTestApp(stack);
    const seller = await signIn(testApp, 'free-plan@example.com');
    const buy = (forwardedFor?: string) =>
      testApp!.app.inject({
        method: 'POST',
        url: '/api/payments/credits',
        payload: { planKey: 'addon-100' },
        headers: {
          ...seller.auth,
          'idempotency-key': crypto.randomUUID(),
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
      });
    for (const url of [
      '/api/payments/subscription',
      '/api/payments/portal-session',
      '/api/payments/cancel-subscription',
    ]) {
      const refused = await testApp.app.inject({
        method: 'POST',
        url,
        payload: { planKey: 'growth' },
        headers: { ...seller.auth, 'x-forwarded-for': PUBLIC },
      });
      expect(refused.statusCode, url).toBe(403);
    }
    const refused = await buy(PUBLIC);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'loopback_only',
      message:
        'The local payments (plans granted for free) answer on this machine only: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or ALLOW_LOCAL_PAYMENTS=true for a trial',
    });
    expect(await balanceOf(testApp, seller.userId)).toBe(0);
    // The catalogue stays public.
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/payments/plans', headers: { 'x-forwarded-for': PUBLIC } }))
        .statusCode,
    ).toBe(200);

    expect((await buy()).statusCode).toBe(200);
    expect(await balanceOf(testApp, seller.userId)).toBe(100);
  });

  it('keep the opt-in flags meaning what they did: with them, anyone may sign in and buy', async () => {
    testApp = await buildTestApp(stack, { env: { ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' } });
    const signedIn = await signInFrom(testApp, { forwardedFor: PUBLIC });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { token, userId } = signedIn.json<{ token: string; userId: string }>();
    const bought = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/credits',
      payload: { planKey: 'addon-100' },
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': PUBLIC },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(await balanceOf(testApp, userId)).toBe(100);
  });
});
