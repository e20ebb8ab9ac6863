import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { balanceOf, eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let session: Session;
let imageId: string;
/** On Growth, for the calls only Growth and Pro include (its shots are 4096 px; the others' stay 1024). */
let grower: Session;
let growerImageId: string;

beforeAll(async () => {
  testApp = await buildTestApp(stack);
  worker = await startWorkerProcess(testApp.env);
  session = await signIn(testApp, 'calls@example.com');
  grower = await signIn(testApp, 'grower@example.com', 'growth');
  await grantCredits(testApp, session.userId, 20);
  await grantCredits(testApp, grower.userId, 2);
  const bottle = await sharp({
    create: { width: 220, height: 480, channels: 4, background: { r: 200, g: 60, b: 40, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const photo = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#f4f4f4' } })
    .composite([{ input: bottle, left: 290, top: 160 }])
    .jpeg()
    .toBuffer();
  const uploaded = await upload(testApp, session, photo, 'bottle.jpg');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  imageId = uploaded.json()._id;
  const growerUpload = await upload(testApp, grower, photo, 'bottle.jpg');
  expect(growerUpload.statusCode, growerUpload.body).toBe(201);
  growerImageId = growerUpload.json()._id;
}, 60_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
});

function post(url: string, payload: object, headers: Record<string, string> = {}, who: Session = session) {
  return testApp.app.inject({ method: 'POST', url, payload, headers: { ...who.auth, ...headers } });
}

describe('the image model calls of docs/product-spec.md §7', () => {
  it('generate-product-shots answers with one processed image per requested output', async () => {
    const before = await balanceOf(testApp, session.userId);
    const response = await post('/api/images/generate-product-shots', {
      imageId,
      prompt: 'Wooden table',
      count: 2,
      productTitle: 'Red bottle',
    });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.generationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.processedImages).toHaveLength(2);
    expect(data.processedImages[0].settings.backgroundType).toBe('custom');
    expect(await balanceOf(testApp, session.userId)).toBe(before - 2);
  });

  it('answers 202 at once with Prefer: respond-async, and the generation completes', async () => {
    const response = await post(
      '/api/images/generate-product-shots',
      { imageId, backgroundType: 'lightwood' },
      { prefer: 'respond-async' },
    );
    expect(response.statusCode).toBe(202);
    const { generationId } = response.json().data;
    const done = await eventually(
      async () => {
        const g = await testApp.app.inject({
          method: 'GET',
          url: `/api/generations/${generationId}`,
          headers: session.auth,
        });
        const data = g.json().data;
        return data.status === 'complete' ? data : null;
      },
      30_000,
      'the async generation',
    );
    expect(done.styles).toEqual([
      expect.objectContaining({
        index: 0,
        name: 'Light Wood',
        status: 'complete',
        url: expect.any(String),
        thumbnailUrl: expect.stringContaining('/thumbnail.webp?'),
      }),
    ]);
  });

  it('answers a retried synchronous call with the same shots, charging once (Idempotency-Key)', async () => {
    const before = await balanceOf(testApp, session.userId);
    const payload = { imageId, backgroundType: 'marble' };
    const first = await post('/api/images/generate-product-shots', payload, { 'idempotency-key': 'lost-answer' });
    const retry = await post('/api/images/generate-product-shots', payload, { 'idempotency-key': 'lost-answer' });
    expect(first.statusCode, first.body).toBe(200);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().data.generationId).toBe(first.json().data.generationId);
    expect(retry.json().data.processedImages).toHaveLength(1);
    expect(await balanceOf(testApp, session.userId)).toBe(before - 1);
  });

  it('needs a template or a prompt', async () => {
    const response = await post('/api/images/generate-product-shots', { imageId, prompt: '   ' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Choose a template or describe a background');
  });

  it('recommends styles, then renders one chosen style per call', async () => {
    const recommended = await post(
      '/api/images/generate-product-style-recommendations',
      { imageId: growerImageId, productTitle: 'Red serum bottle', productDescription: 'Skin care serum' },
      {},
      grower,
    );
    expect(recommended.statusCode, recommended.body).toBe(200);
    const { generationId, productInfo, styles } = recommended.json().data;
    expect(productInfo.productTitle).toBeTruthy();
    expect(styles.length).toBeGreaterThanOrEqual(3);
    const single = await post(
      '/api/images/generate-single-product-shot',
      { imageId: growerImageId, generationId, stylePrompt: styles[0].prompt, styleName: styles[0].name, styleIndex: 0 },
      {},
      grower,
    );
    expect(single.statusCode, single.body).toBe(200);
    const processed = single.json().data.processedImage;
    expect(processed).toEqual({
      url: expect.any(String),
      thumbnailUrl: expect.any(String),
      previewUrl: expect.any(String),
      settings: { backgroundType: styles[0].name },
    });
    expect(processed.thumbnailUrl).toMatch(/\/thumbnail\.webp\?/);
    expect(processed.previewUrl).toMatch(/\/preview\.webp\?/);
  });

  it('enhances a prompt for free', async () => {
    const before = await balanceOf(testApp, grower.userId);
    const response = await post('/api/images/enhance-prompt', { prompt: 'Beach sunset' }, {}, grower);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.enhancedPrompt.length).toBeGreaterThan('Beach sunset'.length);
    expect(await balanceOf(testApp, grower.userId)).toBe(before);
  });

  it('removes the background into a transparent PNG', async () => {
    const response = await post(`/api/images/${imageId}/remove-background`, { settings: {} });
    expect(response.statusCode, response.body).toBe(200);
    const url = new URL(response.json().data.processedImage.url);
    const image = await testApp.app.inject({ method: 'GET', url: url.pathname + url.search });
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta.hasAlpha).toBe(true);
  });

  it('generates a new background for a stored image', async () => {
    const response = await post(`/api/images/${imageId}/generate-background`, { backgroundType: 'marble' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.processedImage.settings.backgroundType).toBe('marble');
  });

  it('answers 404 for an unknown image and 401 without a token', async () => {
    expect(
      (
        await post('/api/images/generate-product-shots', {
          imageId: '00000000-0000-4000-8000-000000000000',
          backgroundType: 'studio',
        })
      ).statusCode,
    ).toBe(404);
    const anonymous = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/generate-product-shots',
      payload: { imageId, backgroundType: 'studio' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
