import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import type { GenerationDto, ImageDto } from '@prodshot/contracts';
import { generationOutputKey, renditionKey } from '@prodshot/storage';
import { uniqueName } from '@prodshot/testing';
import { grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
// No worker: each call is asked to answer at once (Prefer: respond-async), which is all these tests read.
const UNLIMITED = { RATE_LIMIT_GENERATIONS_PER_MINUTE: '1000', RATE_LIMIT_FREE_ENGINE_CALLS_PER_MINUTE: '1000' };

async function productPhoto(): Promise<Buffer> {
  const product = await sharp({ create: { width: 200, height: 300, channels: 3, background: '#1f5fd6' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 600, height: 600, channels: 3, background: '#f2f2f2' } })
    .composite([{ input: product, left: 200, top: 150 }])
    .jpeg()
    .toBuffer();
}

interface Seller {
  session: Session;
  image: ImageDto;
}

async function seller(app: TestApp, email: string): Promise<Seller> {
  const session = await signIn(app, email);
  await grantCredits(app, session.userId, 100);
  const uploaded = await upload(app, session, await productPhoto(), 'bottle.jpg');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return { session, image: uploaded.json<ImageDto>() };
}

function call(app: TestApp, who: Seller, url: string, payload: object) {
  return app.app.inject({ method: 'POST', url, payload, headers: { ...who.session.auth, prefer: 'respond-async' } });
}

async function generationOf(app: TestApp, who: Seller, id: string): Promise<GenerationDto> {
  const response = await app.app.inject({ method: 'GET', url: `/api/generations/${id}`, headers: who.session.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: GenerationDto }>().data;
}

/** The calls of docs/product-spec.md §7 that name their upload in the body, each with what else it needs. */
const CALLS: [string, object][] = [
  ['/api/images/generate-product-shots', { backgroundType: 'studio' }],
  ['/api/images/generate-product-shots', { backgroundType: 'auto' }],
  ['/api/images/smart-generate-product-shots', { styleCount: 1 }],
  ['/api/images/generate-product-style-recommendations', {}],
];

describe('imageUrl-only calls on the filesystem store (docs/product-spec.md §7)', () => {
  let app: TestApp;
  let alice: Seller;
  let bob: Seller;

  beforeAll(async () => {
    app = await buildTestApp(stack, { env: UNLIMITED });
    [alice, bob] = await Promise.all([seller(app, 'url-alice@example.com'), seller(app, 'url-bob@example.com')]);
  }, 60_000);
  afterAll(() => app.close());

  it.each(CALLS)('%s resolves a signed link of the caller’s upload to that upload', async (url, extra) => {
    expect(alice.image.originalImage.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/files\/users\//);
    const response = await call(app, alice, url, { ...extra, imageUrl: alice.image.originalImage.url });
    expect(response.statusCode, response.body).toBe(202);
    expect((await generationOf(app, alice, response.json().data.generationId)).imageId).toBe(alice.image._id);
  });

  it.each(CALLS)('%s resolves the fallback route /uploads/{id}, relative or absolute', async (url, extra) => {
    for (const imageUrl of [
      `/uploads/${alice.image.fileId}?fallback=true`,
      `http://127.0.0.1:3000/uploads/${alice.image._id}`,
    ]) {
      const response = await call(app, alice, url, { ...extra, imageUrl });
      expect(response.statusCode, `${imageUrl}: ${response.body}`).toBe(202);
      expect((await generationOf(app, alice, response.json().data.generationId)).imageId).toBe(alice.image._id);
    }
  });

  it.each(CALLS)('%s refuses a link that is not ours with 400', async (url, extra) => {
    const path = new URL(alice.image.originalImage.url).pathname;
    for (const imageUrl of [
      `https://evil.example${path}`,
      'http://169.254.169.254/latest/meta-data/',
      'not a url',
      `http://127.0.0.1:3000/api/images/${alice.image._id}`,
    ]) {
      const response = await call(app, alice, url, { ...extra, imageUrl });
      expect(response.statusCode, imageUrl).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'foreign_image_url',
        message: expect.stringContaining('imageUrl'),
      });
    }
  });

  it.each(CALLS)(
    "%s answers 404 to another user's upload link and fallback route, and never shows it",
    async (url, extra) => {
      for (const imageUrl of [bob.image.originalImage.url, `/uploads/${bob.image.fileId}?fallback=true`]) {
        const response = await call(app, alice, url, { ...extra, imageUrl });
        expect(response.statusCode, imageUrl).toBe(404);
        expect(response.body).not.toContain(bob.image._id);
        expect(response.body).not.toContain(bob.image.fileId);
      }
    },
  );

  it('reads the key, not the signature: an expired or re-signed link and a rendition of the upload resolve too', async () => {
    const original = new URL(alice.image.originalImage.url);
    const expired = `${original.origin}${original.pathname}?expires=1&signature=long-gone`;
    const key = decodeURIComponent(original.pathname.replace('/api/files/', ''));
    const thumbnail = await app.deps.store.signedUrl(renditionKey(key, 'thumbnail'));
    for (const imageUrl of [expired, thumbnail, `${original.pathname}${original.search}`]) {
      const response = await call(app, alice, '/api/images/generate-product-shots', {
        backgroundType: 'marble',
        imageUrl,
      });
      expect(response.statusCode, `${imageUrl}: ${response.body}`).toBe(202);
    }
  });

  it("refuses a generated shot's link (400) and a deleted upload's (404)", async () => {
    const shotUrl = await app.deps.store.signedUrl(
      generationOutputKey(alice.session.userId, crypto.randomUUID(), 0, 'image/png'),
    );
    const shot = await call(app, alice, '/api/images/generate-product-shots', {
      backgroundType: 'marble',
      imageUrl: shotUrl,
    });
    expect(shot.statusCode).toBe(400);
    expect(shot.json().code).toBe('not_an_upload');

    const doomed = await upload(app, alice.session, await productPhoto(), 'doomed.jpg');
    const doomedImage = doomed.json<ImageDto>();
    expect(
      (await app.app.inject({ method: 'DELETE', url: `/api/images/${doomedImage._id}`, headers: alice.session.auth }))
        .statusCode,
    ).toBe(200);
    const gone = await call(app, alice, '/api/images/generate-product-shots', {
      backgroundType: 'marble',
      imageUrl: doomedImage.originalImage.url,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('lets ids win over an imageUrl beside them, and asks for an image when none is named', async () => {
    const both = await call(app, alice, '/api/images/generate-product-shots', {
      backgroundType: 'studio',
      imageId: alice.image._id,
      imageUrl: 'https://evil.example/x.png',
    });
    expect(both.statusCode, both.body).toBe(202);
    const none = await call(app, alice, '/api/images/generate-product-shots', { backgroundType: 'studio' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({
      code: 'missing_image',
      message: 'Name the image: imageId, fileId or imageUrl',
    });
  });

  it('generate-single-product-shot takes imageUrl in place of imageId and fileId', async () => {
    const recommended = await call(app, alice, '/api/images/generate-product-style-recommendations', {
      imageUrl: alice.image.originalImage.url,
    });
    expect(recommended.statusCode, recommended.body).toBe(202);
    const single = await call(app, alice, '/api/images/generate-single-product-shot', {
      imageUrl: alice.image.originalImage.url,
      generationId: recommended.json().data.generationId,
      stylePrompt: 'white marble surface',
      styleName: 'Marble',
      styleIndex: 0,
    });
    expect(single.statusCode, single.body).toBe(202);
  });
});

describe('imageUrl-only calls on the S3 store', () => {
  let app: TestApp;
  let alice: Seller;
  let bob: Seller;

  beforeAll(async () => {
    const s3 = stack.s3;
    app = await buildTestApp(stack, {
      env: {
        ...UNLIMITED,
        MINIO_ENDPOINT: s3.endPoint,
        MINIO_PORT: String(s3.port),
        MINIO_USE_SSL: String(s3.useSSL),
        MINIO_ACCESS_KEY: s3.accessKey,
        MINIO_SECRET_KEY: s3.secretKey,
        MINIO_REGION: s3.region,
        MINIO_BUCKET: uniqueName('urls').replaceAll('_', '-'),
      },
    });
    [alice, bob] = await Promise.all([seller(app, 's3-alice@example.com'), seller(app, 's3-bob@example.com')]);
  }, 60_000);
  afterAll(() => app.close());

  it("resolves the caller's presigned link, refuses a foreign host with 400 and another user's link with 404", async () => {
    const link = new URL(alice.image.originalImage.url);
    expect(link.searchParams.get('X-Amz-Signature')).toBeTruthy();
    const ours = await call(app, alice, '/api/images/generate-product-shots', {
      backgroundType: 'studio',
      imageUrl: link.href,
    });
    expect(ours.statusCode, ours.body).toBe(202);
    expect((await generationOf(app, alice, ours.json().data.generationId)).imageId).toBe(alice.image._id);

    link.hostname = 'evil.example';
    expect(
      (await call(app, alice, '/api/images/generate-product-shots', { backgroundType: 'studio', imageUrl: link.href }))
        .statusCode,
    ).toBe(400);
    const theirs = await call(app, alice, '/api/images/smart-generate-product-shots', {
      imageUrl: bob.image.originalImage.url,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain(bob.image._id);
  });
});
