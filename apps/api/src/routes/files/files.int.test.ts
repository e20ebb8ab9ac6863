import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { signPath, uploadKey } from '@prodshot/storage';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
const key = uploadKey('user-a', 'file-1', 'image/png');
const otherKey = uploadKey('user-b', 'file-2', 'image/png');
const png = Buffer.from('89504e470d0a1a0a', 'hex');

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  await testApp.deps.store.put(key, png, 'image/png');
  await testApp.deps.store.put(otherKey, png, 'image/png');
});
afterAll(() => testApp.close());

function maxAgeOf(cacheControl: unknown): number {
  const match = /^private, max-age=(\d+), immutable$/.exec(String(cacheControl));
  if (!match) throw new Error(`unexpected Cache-Control: ${String(cacheControl)}`);
  return Number(match[1]);
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

describe('GET /api/files/* (filesystem storage behind signed URLs)', () => {
  it('serves the object its signed URL names, with nosniff', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: pathOf(await testApp.deps.store.signedUrl(key, 60)),
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(png)).toBe(true);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lets the browser keep the file until its link expires, and answers a revalidation with 304', async () => {
    const signed = pathOf(await testApp.deps.store.signedUrl(key, 60));
    const expires = Number(new URL(signed, 'http://x').searchParams.get('expires'));
    const response = await testApp.app.inject({ method: 'GET', url: signed });
    const maxAge = maxAgeOf(response.headers['cache-control']);
    expect(Math.abs(maxAge - (expires - Date.now() / 1000))).toBeLessThan(5);
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);

    const revalidated = await testApp.app.inject({ method: 'GET', url: signed, headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
    expect(revalidated.headers.etag).toBe(etag);
    // The same link keeps the same expiry; only the clock may have crossed a second between calls.
    expect(maxAge - maxAgeOf(revalidated.headers['cache-control'])).toBeGreaterThanOrEqual(0);
    expect(maxAge - maxAgeOf(revalidated.headers['cache-control'])).toBeLessThanOrEqual(1);

    const stale = await testApp.app.inject({ method: 'GET', url: signed, headers: { 'if-none-match': 'W/"0-0"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(png)).toBe(true);
  });

  it('refuses a signature reused for another key', async () => {
    const signed = new URL(await testApp.deps.store.signedUrl(key, 60));
    const forged = signed.pathname.replace('user-a/uploads/file-1', 'user-b/uploads/file-2') + signed.search;
    const response = await testApp.app.inject({ method: 'GET', url: forged });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'invalid_signature' });
  });

  it('refuses an expired link', async () => {
    const expired = signPath(testApp.deps.fileSigningSecret!, key, Math.floor(Date.now() / 1000) - 1);
    const response = await testApp.app.inject({ method: 'GET', url: expired });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: 'This link has expired' });
  });

  it('refuses a link with no signature', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: `/api/files/${key}` });
    expect(response.statusCode).toBe(403);
  });

  it('refuses traversal in the path', async () => {
    for (const url of [
      '/api/files/users/../../etc/passwd',
      '/api/files/users/%2e%2e/%2e%2e/etc/passwd',
      '/api/files/users/a\\b',
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect([400, 403, 404]).toContain(response.statusCode);
      expect(response.body).not.toContain('root:');
    }
  });

  it('answers 404 for a signed link to a missing object', async () => {
    const missing = uploadKey('user-a', 'gone', 'image/png');
    const response = await testApp.app.inject({
      method: 'GET',
      url: pathOf(await testApp.deps.store.signedUrl(missing, 60)),
    });
    expect(response.statusCode).toBe(404);
  });
});
