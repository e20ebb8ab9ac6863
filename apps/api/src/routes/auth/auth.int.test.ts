import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import {
  mintSessionToken,
  startClerkFake,
  startStripeFake,
  testClerkId,
  testSessionKey,
  type ClerkFake,
  type StripeFake,
} from '@prodshot/testing';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const CLERK_SECRET_KEY = 'sk_test_prodshot_clerk_fake';

describe("registration with Clerk takes the email from Clerk's verified primary address", () => {
  let clerk: ClerkFake;
  let stripe: StripeFake;
  let testApp: TestApp;

  beforeAll(async () => {
    [clerk, stripe] = await Promise.all([startClerkFake(CLERK_SECRET_KEY), startStripeFake()]);
    testApp = await buildTestApp(stack, {
      env: {
        CLERK_SECRET_KEY,
        CLERK_PUBLISHABLE_KEY: `pk_test_${Buffer.from('prodshot-test.clerk.accounts.dev$').toString('base64')}`,
        // Tokens are signed here with the test key, verified offline as Clerk's networkless mode does.
        CLERK_JWT_KEY: testSessionKey().publicKeyPem,
        CLERK_API_URL: clerk.url,
        STRIPE_SECRET_KEY: 'sk_test_prodshot_fake',
        STRIPE_WEBHOOK_SECRET: 'whsec_prodshot_test_secret',
        STRIPE_API_BASE: stripe.url,
      },
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await Promise.all([clerk?.close(), stripe?.close()]);
  });

  async function register(clerkId: string, email: string) {
    const headers = { authorization: `Bearer ${await mintSessionToken({ clerkId })}` };
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers,
      payload: { email, name: 'Sam Seller', clerkId },
    });
    return { response, headers };
  }

  async function emailOfRow(clerkId: string): Promise<string | undefined> {
    return (
      await testApp.deps.db.selectFrom('users').select('email').where('clerk_id', '=', clerkId).executeTakeFirst()
    )?.email;
  }

  it('registers the verified primary address whatever the request says, and Stripe Checkout gets that address', async () => {
    const clerkId = testClerkId();
    clerk.putUser({
      id: clerkId,
      emails: [
        { address: 'old@example.com', verified: true },
        { address: 'sam@example.com', verified: true },
      ],
      primary: 1,
    });
    const { response, headers } = await register(clerkId, 'someone-else@victim.example');
    expect(response.statusCode).toBe(200);
    expect(await emailOfRow(clerkId)).toBe('sam@example.com');
    expect(clerk.requests.at(-1)).toEqual({
      method: 'GET',
      path: `/v1/users/${clerkId}`,
      authorization: `Bearer ${CLERK_SECRET_KEY}`,
    });

    const profile = await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers });
    expect(profile.json()).toMatchObject({ email: 'sam@example.com', name: 'Sam Seller' });
    const checkout = await testApp.app.inject({
      method: 'POST',
      url: '/api/payments/subscription',
      headers,
      payload: { planKey: 'growth', customerData: { email: 'someone-else@victim.example' } },
    });
    expect(checkout.statusCode).toBe(200);
    expect(stripe.requests.at(-1)).toMatchObject({
      path: '/v1/checkout/sessions',
      body: { customer_email: 'sam@example.com' },
    });
  });

  it('refuses (403) a user whose primary address Clerk has not verified, even when another address is verified', async () => {
    const clerkId = testClerkId();
    clerk.putUser({
      id: clerkId,
      emails: [
        { address: 'verified@example.com', verified: true },
        { address: 'claimed@victim.example', verified: false },
      ],
      primary: 1,
    });
    const { response } = await register(clerkId, 'claimed@victim.example');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'email_not_verified',
      message: 'Verify your email address with the sign-in provider, then sign in again.',
    });
    expect(await emailOfRow(clerkId)).not.toBe('claimed@victim.example');
    const verify = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/verify-token',
      payload: { token: await mintSessionToken({ clerkId }) },
    });
    expect(verify.json()).toEqual({ valid: false });
  });

  it('refuses (403) a user with no primary address, or one Clerk does not know', async () => {
    const withoutPrimary = testClerkId();
    clerk.putUser({ id: withoutPrimary, emails: [{ address: 'loose@example.com', verified: true }], primary: null });
    expect((await register(withoutPrimary, 'loose@example.com')).response.statusCode).toBe(403);
    const unknown = testClerkId();
    expect((await register(unknown, 'ghost@example.com')).response.statusCode).toBe(403);
    expect(await emailOfRow(unknown)).not.toBe('ghost@example.com');
  });

  it('answers 503 when Clerk cannot be asked, and registers nothing', async () => {
    const clerkId = testClerkId();
    clerk.putUser({ id: clerkId, emails: [{ address: 'sam2@example.com', verified: true }], primary: 0 });
    const other = await buildTestApp(stack, {
      env: { ...testApp.env, DATABASE_URL: testApp.env.DATABASE_URL, CLERK_SECRET_KEY: 'sk_test_wrong_key' },
      databaseUrl: testApp.env.DATABASE_URL!,
    });
    try {
      const headers = { authorization: `Bearer ${await mintSessionToken({ clerkId })}` };
      const response = await other.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers,
        payload: { email: 'x@victim.example', name: 'X', clerkId },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'auth_provider_unavailable' });
    } finally {
      await other.close();
    }
    expect(await emailOfRow(clerkId)).not.toBe('x@victim.example');
  });
});
