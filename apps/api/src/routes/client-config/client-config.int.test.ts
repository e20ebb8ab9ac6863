import { afterEach, describe, expect, it, inject } from 'vitest';
import type { ClientConfigResponse } from '@prodshot/contracts';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

describe('GET /api/client-config', () => {
  it('tells a signed-out browser to use the embedded sign-in when no Clerk key is configured', async () => {
    testApp = await buildTestApp(stack);
    const response = await testApp.app.inject({ method: 'GET', url: '/api/client-config' });
    expect(response.statusCode).toBe(200);
    expect(response.json<ClientConfigResponse>()).toEqual({ auth: { mode: 'embedded' } });
  });
});

describe('GET /api/client-config with Clerk configured', () => {
  it('hands over the publishable key and never the secret key', async () => {
    const publishableKey = `pk_test_${Buffer.from('prodshot-test.clerk.accounts.dev$').toString('base64')}`;
    testApp = await buildTestApp(stack, {
      env: {
        CLERK_SECRET_KEY: 'sk_test_never_sent_to_browsers',
        CLERK_PUBLISHABLE_KEY: publishableKey,
        CLERK_JWT_KEY: 'unused-in-this-test',
      },
    });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/client-config' });
    expect(response.statusCode).toBe(200);
    expect(response.json<ClientConfigResponse>()).toEqual({ auth: { mode: 'clerk', publishableKey } });
    expect(response.body).not.toContain('sk_test_');
  });
});

describe('GET /api/client-config with a Clerk JWT template', () => {
  it('names the template the web app must ask Clerk for (CLERK_JWT_TEMPLATE)', async () => {
    const publishableKey = `pk_test_${Buffer.from('prodshot-test.clerk.accounts.dev$').toString('base64')}`;
    testApp = await buildTestApp(stack, {
      env: {
        CLERK_SECRET_KEY: 'sk_test_never_sent_to_browsers',
        CLERK_PUBLISHABLE_KEY: publishableKey,
        CLERK_JWT_KEY: 'unused-in-this-test',
        CLERK_JWT_TEMPLATE: 'prodshot-api',
      },
    });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/client-config' });
    expect(response.json<ClientConfigResponse>()).toEqual({
      auth: { mode: 'clerk', publishableKey, jwtTemplate: 'prodshot-api' },
    });
  });
});
