import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { uploadKey } from '@prodshot/storage';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let webDistDir: string;
// Big enough to be worth compressing, as a real chunk is.
const script = Array.from({ length: 400 }, (_, i) => `export const value${i} = compute(${i});`).join('\n');
const publicFiles = {
  'robots.txt': 'User-agent: *\nAllow: /\n',
  'favicon.ico': Buffer.from('00000100010010100000', 'hex'),
  'manifest.webmanifest': '{"name":"Prodshot"}',
};

beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(tmpdir(), 'prodshot-web-'));
  await mkdir(path.join(webDistDir, 'assets'));
  await writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><link rel="preload" as="image" href="/hero.webp"><div id="root"></div>',
  );
  await writeFile(path.join(webDistDir, 'app.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(webDistDir, 'assets', 'app-abc123.js'), script);
  for (const [name, body] of Object.entries(publicFiles)) await writeFile(path.join(webDistDir, name), body);
  // What builds wrote before the API made the sitemap: it must neither clash with nor replace the API's.
  await writeFile(path.join(webDistDir, 'sitemap.xml'), '<?xml version="1.0"?><urlset></urlset>');
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

  it("preloads the home page's hero on / alone: every other route gets app.html, which leaves it out", async () => {
    for (const url of ['/', '/?ref=ad']) {
      expect((await testApp.app.inject({ method: 'GET', url })).body, url).toContain('/hero.webp');
    }
    for (const url of ['/dashboard', '/pricing', '/smart-results?x=1']) {
      expect((await testApp.app.inject({ method: 'GET', url })).body, url).not.toContain('/hero.webp');
    }
  });

  it('serves fingerprinted assets with a long cache lifetime', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it("answers /sitemap.xml with the API's own sitemap, not a file an older build left", async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('/pricing</loc>');
  });

  it('serves the files the build holds (robots.txt, favicon, manifest) before the SPA fallback', async () => {
    for (const [name, body] of Object.entries(publicFiles)) {
      const response = await testApp.app.inject({ method: 'GET', url: `/${name}` });
      expect(response.statusCode, name).toBe(200);
      expect(response.rawPayload.equals(Buffer.from(body)), name).toBe(true);
    }
  });

  it('answers 404, not index.html, for a missing asset or file', async () => {
    for (const url of [
      '/assets/app-old999.js',
      '/assets/nothing',
      '/apple-touch-icon.png',
      '/assets/app-abc123.js.map?x=1',
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<div id="root">');
    }
  });

  it('sends scripts precompressed with brotli or gzip, as the browser accepts, varying on it', async () => {
    const plain = await testApp.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    const br = await testApp.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    // Compressed once at boot, at the best level, not per request.
    expect(br.rawPayload.equals(await readFile(path.join(webDistDir, 'assets', 'app-abc123.js.br')))).toBe(true);

    const gzip = await testApp.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
  });

  it('compresses JSON over 1 KB, and leaves small answers and images as they are', async () => {
    const spec = await testApp.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(spec.headers['content-type']).toContain('application/json');
    expect(spec.headers['content-encoding']).toBe('br');
    expect(spec.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(spec.rawPayload).toString())).toHaveProperty('openapi');
    const gzipped = await testApp.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');

    const small = await testApp.app.inject({
      method: 'GET',
      url: '/api/payments/plans',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();

    const key = uploadKey('user-a', 'photo', 'image/png');
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    await testApp.deps.store.put(key, png, 'image/png');
    const signed = new URL(await testApp.deps.store.signedUrl(key), 'http://x');
    const image = await testApp.app.inject({
      method: 'GET',
      url: signed.pathname + signed.search,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.rawPayload.equals(png)).toBe(true);
  });

  it('answers 404 for the operator paths, which live on the ops listener, rather than the SPA in their place', async () => {
    for (const url of ['/metrics', '/admin/queues', '/admin/queues/api/queues', '/metrics?format=text']) {
      const response = await testApp.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'sec-fetch-dest': 'document' },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('sends the SPA with a policy no page may frame and that connects to its own origin only', async () => {
    for (const url of ['/', '/dashboard']) {
      const policy = String((await testApp.app.inject({ method: 'GET', url })).headers['content-security-policy']);
      expect(policy, url).toContain("frame-ancestors 'none'");
      const connect = /connect-src ([^;]*)/.exec(policy)?.[1]?.split(' ');
      expect(connect, url).toEqual(["'self'", 'ws://127.0.0.1:3000']);
    }
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
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
    const read = await testApp.app.inject({ method: 'GET', url: '/api/payments/plans', headers: { origin } });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(read.headers['cross-origin-resource-policy']).toBe('same-origin');
    const socketHandshake = await testApp.app.inject({
      method: 'GET',
      url: '/socket.io/?EIO=4&transport=polling',
      headers: { origin },
    });
    expect(socketHandshake.headers['access-control-allow-origin']).toBeUndefined();
  });
});
