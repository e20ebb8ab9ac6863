import { afterAll, afterEach, beforeAll, describe, expect, it, inject, vi } from 'vitest';
import type { UserProfile } from '@prodshot/contracts';
import {
  createTestSessionKey,
  mintSessionToken,
  mintTemplateToken,
  TEST_AUTHORIZED_PARTY,
  testClerkId,
  testSessionKey,
} from '@prodshot/testing';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

// Clerk's runtime calls the global fetch under NODE_ENV=test; any call means a network round trip.
const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('network is off in auth tests'));
afterEach(() => expect(fetchSpy).not.toHaveBeenCalled());

describe.each([
  { mode: 'embedded', env: {} },
  {
    mode: 'clerk',
    env: {
      CLERK_SECRET_KEY: 'sk_test_prodshot_offline',
      CLERK_PUBLISHABLE_KEY: `pk_test_${Buffer.from('prodshot-test.clerk.accounts.dev$').toString('base64')}`,
      CLERK_JWT_KEY: testSessionKey().publicKeyPem,
      // CLERK_AUTHORIZED_PARTIES unset: PUBLIC_URL's origin (TEST_AUTHORIZED_PARTY) is the one accepted.
    },
  },
])('@clerk/fastify in $mode mode', ({ mode, env }) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(stack, { env });
  });
  afterAll(() => testApp.close());

  it('accepts a valid session token and gives the request its user row', async () => {
    const clerkId = testClerkId();
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: bearer(await mintSessionToken({ clerkId })),
    });
    expect(response.statusCode).toBe(200);
    const row = await testApp.deps.db
      .selectFrom('users')
      .selectAll()
      .where('clerk_id', '=', clerkId)
      .executeTakeFirstOrThrow();
    expect(response.json<UserProfile>()).toEqual({ id: row.id, name: '', email: '' });
    expect(testApp.deps.config.auth.mode).toBe(mode);
  });

  it('accepts a token from a Clerk JWT template (CLERK_JWT_TEMPLATE): no session id, its own claims, the user in sub', async () => {
    const clerkId = testClerkId();
    const token = await mintTemplateToken({
      clerkId,
      claims: { email: 'tess@example.com', name: 'Tess', aud: 'prodshot-api', role: 'seller' },
    });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(payload.sid).toBeUndefined();

    const response = await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const row = await testApp.deps.db
      .selectFrom('users')
      .selectAll()
      .where('clerk_id', '=', clerkId)
      .executeTakeFirstOrThrow();
    expect(response.json<UserProfile>()).toEqual({ id: row.id, name: 'Tess', email: 'tess@example.com' });

    const verify = await testApp.app.inject({ method: 'POST', url: '/api/auth/verify-token', payload: { token } });
    expect(verify.json()).toEqual({ valid: true });
    expect((await testApp.app.sessionAuth.verifySessionToken(token))?.clerkId).toBe(clerkId);
  });

  it.each([
    ['an expired template token', () => mintTemplateToken({ clerkId: testClerkId(), expiresInSeconds: -120 })],
    [
      'a template token signed by another key',
      () => mintTemplateToken({ clerkId: testClerkId(), key: createTestSessionKey() }),
    ],
    [
      'a template token for another authorized party',
      () => mintTemplateToken({ clerkId: testClerkId(), azp: 'https://evil.example' }),
    ],
  ])('answers 401 to %s', async (_name, token) => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: bearer(await token()),
    });
    expect(response.statusCode).toBe(401);
  });

  it.each([
    ['an expired token', () => mintSessionToken({ clerkId: testClerkId(), expiresInSeconds: -120 })],
    ['a token signed by another key', () => mintSessionToken({ clerkId: testClerkId(), key: createTestSessionKey() })],
    [
      'a token for another authorized party',
      () => mintSessionToken({ clerkId: testClerkId(), azp: 'https://evil.example' }),
    ],
    ['a malformed token', async () => 'not.a.jwt'],
  ])('answers 401 Unauthorized to %s and creates no user', async (_name, token) => {
    const before = await testApp.deps.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: bearer(await token()),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Unauthorized',
      code: 'unauthorized',
    });
    const after = await testApp.deps.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('answers 401 without a token', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/users/subscription' });
    expect(response.statusCode).toBe(401);
  });

  it('verifies tokens outside a request (socket handshake) with the same checks', async () => {
    const clerkId = testClerkId();
    const before = Date.now();
    const verified = await testApp.app.sessionAuth.verifySessionToken(
      await mintSessionToken({ clerkId, expiresInSeconds: 300 }),
    );
    expect(verified?.clerkId).toBe(clerkId);
    expect(verified!.expiresAt).toBeGreaterThan(before + 298_000);
    expect(verified!.expiresAt).toBeLessThan(before + 302_000);
    expect(
      await testApp.app.sessionAuth.verifySessionToken(
        await mintSessionToken({ clerkId, azp: 'https://evil.example' }),
      ),
    ).toBeNull();
    expect(
      await testApp.app.sessionAuth.verifySessionToken(await mintSessionToken({ clerkId, expiresInSeconds: -120 })),
    ).toBeNull();
  });
});

describe('embedded dev sign-in', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(stack);
  });
  afterAll(() => testApp.close());

  it('mints a Clerk-shaped token that the same @clerk/fastify path accepts', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/dev/sign-in',
      payload: { email: 'Ada@Example.com', name: 'Ada' },
    });
    expect(response.statusCode).toBe(200);
    const { token, userId } = response.json<{ token: string; userId: string }>();
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(Object.keys(payload).sort()).toEqual(['azp', 'exp', 'iat', 'iss', 'nbf', 'sid', 'sub']);
    expect(payload.azp).toBe(TEST_AUTHORIZED_PARTY);

    const profile = await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
    expect(profile.json<UserProfile>()).toEqual({ id: userId, name: 'Ada', email: 'ada@example.com' });
  });

  it('signs the same email into the same account', async () => {
    const sign = async () =>
      (
        await testApp.app.inject({
          method: 'POST',
          url: '/api/dev/sign-in',
          payload: { email: 'grace@example.com', name: 'Grace' },
        })
      ).json<{ userId: string }>().userId;
    expect(await sign()).toBe(await sign());
  });

  it('is absent when Clerk is configured', async () => {
    const clerkApp = await buildTestApp(stack, {
      env: {
        CLERK_SECRET_KEY: 'sk_test_x',
        CLERK_PUBLISHABLE_KEY: `pk_test_${Buffer.from('x.clerk.accounts.dev$').toString('base64')}`,
      },
    });
    try {
      const response = await clerkApp.app.inject({
        method: 'POST',
        url: '/api/dev/sign-in',
        payload: { email: 'a@example.com', name: 'A' },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await clerkApp.close();
    }
  });

  it('does not redirect a browser page load to Clerk (no dev-browser handshake in embedded mode)', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'sec-fetch-dest': 'document', accept: 'text/html' },
    });
    expect(response.statusCode).not.toBe(307);
  });
});
