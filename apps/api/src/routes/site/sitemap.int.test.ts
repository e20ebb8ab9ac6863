import { afterEach, describe, expect, it, inject } from 'vitest';
import { PUBLIC_PAGES } from '@prodshot/contracts';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

describe('GET /sitemap.xml', () => {
  it('lists every public page at the origin the deployment runs at, whatever the build saw', async () => {
    testApp = await buildTestApp(stack, {
      env: { PUBLIC_URL: 'https://shop.example.com/', ALLOW_EMBEDDED_AUTH: 'true', ALLOW_LOCAL_PAYMENTS: 'true' },
    });
    const response = await testApp.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/xml');
    const locs = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(PUBLIC_PAGES.map((page) => `https://shop.example.com${page}`));
    expect(response.body).not.toContain('localhost');
  });
});
