import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;

beforeAll(async () => {
  const webDistDir = await mkdtemp(path.join(tmpdir(), 'prodshot-web-'));
  await mkdir(path.join(webDistDir, 'assets'));
  await writeFile(path.join(webDistDir, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(webDistDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  testApp = await buildTestApp(stack, { webDistDir });
});
afterAll(() => testApp.close());

describe('serving the web app beside the API', () => {
  it('serves index.html for client-side routes', async () => {
    for (const url of ['/', '/dashboard', '/smart-results?x=1', '/no/such/page']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves fingerprinted assets with a long cache lifetime', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, code: 'not_found' });
  });

  it('sets security headers and a request id', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('grants no other origin access: CORS stays closed because the web app is served from the same origin', async () => {
    const origin = 'https://evil.example';
    const preflight = await testApp.app.inject({
      method: 'OPTIONS',
      url: '/api/images/generate-product-shots',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
    const read = await testApp.app.inject({ method: 'GET', url: '/api/payments/plans', headers: { origin } });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(read.headers['cross-origin-resource-policy']).toBe('same-origin');
    const socketHandshake = await testApp.app.inject({ method: 'GET', url: '/socket.io/?EIO=4&transport=polling', headers: { origin } });
    expect(socketHandshake.headers['access-control-allow-origin']).toBeUndefined();
  });
});
