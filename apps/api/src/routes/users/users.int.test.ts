import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { mintSessionToken, testClerkId } from '@prodshot/testing';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
});
afterAll(() => testApp.close());

async function signedIn(clerkId = testClerkId()) {
  return { clerkId, token: await mintSessionToken({ clerkId }) };
}

describe('profile', () => {
  it('updates the name, keeps the email read-only, and requires a name', async () => {
    const { clerkId, token } = await signedIn();
    const headers = { authorization: `Bearer ${token}` };
    await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers,
      payload: { email: 'lin@example.com', name: 'Lin', clerkId },
    });

    const renamed = await testApp.app.inject({
      method: 'PATCH',
      url: '/api/users/profile',
      headers,
      payload: { name: '  Lin Chen ', email: 'other@example.com' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Lin Chen', email: 'lin@example.com' });

    const blank = await testApp.app.inject({
      method: 'PATCH',
      url: '/api/users/profile',
      headers,
      payload: { name: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Name is required');
    expect((await testApp.app.inject({ method: 'GET', url: '/api/users/profile', headers })).json()).toMatchObject({
      name: 'Lin Chen',
    });
  });
});

describe('registration and token verification', () => {
  it('reports a verified but unregistered token as not valid, and valid once registered', async () => {
    const { clerkId, token } = await signedIn();
    const verify = () => testApp.app.inject({ method: 'POST', url: '/api/auth/verify-token', payload: { token } });
    expect((await verify()).json()).toEqual({ valid: false });
    const registered = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { authorization: `Bearer ${token}` },
      payload: { email: 'reg@example.com', name: 'Reg', clerkId },
    });
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toMatchObject({ token, valid: true });
    expect((await verify()).json()).toEqual({ valid: true });
  });

  it('answers valid false for a token that does not verify', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/verify-token',
      payload: { token: 'eyJ.bad.token' },
    });
    expect(response.json()).toEqual({ valid: false });
  });

  it("refuses with 403 to register someone else's Clerk id and leaves their row alone", async () => {
    const victim = await signedIn();
    await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { authorization: `Bearer ${victim.token}` },
      payload: { email: 'victim@example.com', name: 'Victim', clerkId: victim.clerkId },
    });
    const attacker = await signedIn();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { authorization: `Bearer ${attacker.token}` },
      payload: { email: 'attacker@example.com', name: 'Attacker', clerkId: victim.clerkId },
    });
    expect(response.statusCode).toBe(403);
    const row = await testApp.deps.db
      .selectFrom('users')
      .selectAll()
      .where('clerk_id', '=', victim.clerkId)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe('victim@example.com');
  });
});
