import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { corpusFiles } from '@prodshot/fixtures';
import { multipartBody, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
const hostile = [...corpusFiles('hostile'), ...corpusFiles('edge-cases')];
const PAYLOAD_MARKERS = ['<script', 'phpinfo', 'alert(', '<?php', 'onload='];

let testApp: TestApp;
let session: Session;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  session = await signIn(testApp, 'uploader@example.com');
});
afterAll(() => testApp.close());

async function storedFiles(): Promise<string[]> {
  try {
    const entries = await readdir(path.join(testApp.env.STORAGE_DIR!, 'users'), {
      recursive: true,
      withFileTypes: true,
    });
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function imageRows(): Promise<number> {
  const rows = await testApp.deps.db.selectFrom('images').select('id').where('user_id', '=', session.userId).execute();
  return rows.length;
}

describe('every hostile and edge-case file uploaded through the API', () => {
  it.each(hostile.map((file) => [path.basename(file), file]))(
    '%s: a clean stored image or a clear 4xx, nothing stored on refusal',
    async (_name, file) => {
      const filesBefore = (await storedFiles()).length;
      const rowsBefore = await imageRows();
      const response = await upload(testApp, session, file);
      if (response.statusCode === 201) {
        const body = response.json<{ _id: string }>();
        const row = await testApp.deps.db
          .selectFrom('images')
          .selectAll()
          .where('id', '=', body._id)
          .executeTakeFirstOrThrow();
        expect(['image/png', 'image/jpeg']).toContain(row.content_type);
        const stored = await testApp.deps.store.get(row.storage_key);
        const meta = await sharp(stored).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.iptc).toBeUndefined();
        const text = stored.toString('latin1').toLowerCase();
        for (const marker of PAYLOAD_MARKERS) expect(text).not.toContain(marker);
        expect(Math.max(row.width, row.height)).toBeLessThanOrEqual(20_000);
      } else {
        expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        expect(response.json().message).toMatch(/\w{4,}/);
        expect((await storedFiles()).length).toBe(filesBefore);
        expect(await imageRows()).toBe(rowsBefore);
      }
    },
  );

  it('never stores or serves SVG, gzipped (SVGZ) or not', async () => {
    for (const file of hostile.filter((f) => f.endsWith('.svg'))) {
      const response = await upload(testApp, session, file);
      expect(response.statusCode).toBe(415);
      const gzipped = await upload(testApp, session, gzipSync(await readFile(file)), `${path.basename(file)}z`);
      expect(gzipped.statusCode).toBe(415);
      expect(gzipped.json().message).toContain('SVGZ');
    }
    const contentTypes = await testApp.deps.db
      .selectFrom('images')
      .select('content_type')
      .where('user_id', '=', session.userId)
      .execute();
    expect(contentTypes.some((r) => r.content_type.includes('svg'))).toBe(false);
  });
});

describe('malformed uploads and bodies', () => {
  const small = sharp({ create: { width: 64, height: 64, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();

  it('refuses an empty file, a missing file and a wrong field name', async () => {
    expect((await upload(testApp, session, Buffer.alloc(0))).statusCode).toBe(400);
    const noFile = multipartBody([{ name: 'name', data: 'x' }]);
    const r1 = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      payload: noFile.payload,
      headers: { ...noFile.headers, ...session.auth },
    });
    expect(r1.statusCode).toBe(400);
    expect(r1.json().message).toBe('Please select a file first');
    const wrongField = multipartBody([{ name: 'file', filename: 'a.png', data: await small }]);
    const r2 = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      payload: wrongField.payload,
      headers: { ...wrongField.headers, ...session.auth },
    });
    expect(r2.statusCode).toBe(400);
  });

  it('refuses many files in one request and a huge field', async () => {
    const png = await small;
    const many = multipartBody(
      Array.from({ length: 5 }, (_, i) => ({ name: 'image', filename: `${i}.png`, data: png })),
    );
    const rowsBefore = await imageRows();
    const r1 = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      payload: many.payload,
      headers: { ...many.headers, ...session.auth },
    });
    expect([400, 413]).toContain(r1.statusCode);
    const huge = multipartBody([
      { name: 'name', data: 'x'.repeat(100_000) },
      { name: 'image', filename: 'a.png', data: png },
    ]);
    const r2 = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      payload: huge.payload,
      headers: { ...huge.headers, ...session.auth },
    });
    expect(r2.statusCode).toBe(413);
    expect(await imageRows()).toBe(rowsBefore);
  });

  it('refuses a file over 10 MB with 413', async () => {
    const big = multipartBody([{ name: 'image', filename: 'big.png', data: Buffer.alloc(10 * 1024 * 1024 + 10, 1) }]);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      payload: big.payload,
      headers: { ...big.headers, ...session.auth },
    });
    expect(response.statusCode).toBe(413);
  });

  it('refuses a body that is not multipart', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      payload: { image: 'x' },
      headers: session.auth,
    });
    expect(response.statusCode).toBe(415);
  });

  it('keeps a unicode or right-to-left name as text, never as a path', async () => {
    const body = multipartBody([
      { name: 'name', data: '../../etc/\u202Egnp.exe 商品 写真' },
      { name: 'image', filename: 'x.png', data: await small },
    ]);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      payload: body.payload,
      headers: { ...body.headers, ...session.auth },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toBe('..-..-etc-gnp.exe 商品 写真');
  });

  it('answers 400 to malformed JSON, a 1 MB prompt, and a negative or huge count', async () => {
    const json = { ...session.auth, 'content-type': 'application/json' };
    const cases = [
      { url: '/api/images/generate-product-shots', payload: '{"imageId": ' },
      { url: '/api/images/enhance-prompt', payload: JSON.stringify({ prompt: 'x'.repeat(1024 * 1024) }) },
      { url: '/api/images/enhance-prompt', payload: JSON.stringify({ prompt: 'x'.repeat(1001) }) },
      {
        url: '/api/images/generate-product-shots',
        payload: JSON.stringify({ imageId: 'x', backgroundType: 'studio', count: -1 }),
      },
      {
        url: '/api/images/generate-product-shots',
        payload: JSON.stringify({ imageId: 'x', backgroundType: 'studio', count: 1e9 }),
      },
      {
        url: '/api/images/generate-product-shots',
        payload: JSON.stringify({ imageId: 'x', backgroundType: 'not-a-template' }),
      },
    ];
    for (const c of cases) {
      const response = await testApp.app.inject({ method: 'POST', url: c.url, payload: c.payload, headers: json });
      expect([400, 413], `${c.url} ${c.payload.slice(0, 60)}`).toContain(response.statusCode);
      expect(response.json().message).toBeTruthy();
    }
  });

  it('keeps answering after all of it', async () => {
    const health = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});
