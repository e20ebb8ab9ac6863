import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { PRODUCT_TITLE_MAX_LENGTH } from '@prodshot/contracts';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let alice: Session;
let bob: Session;
let image: { _id: string; fileId: string; productTitle: string | null };

async function productPng(): Promise<Buffer> {
  const product = await sharp({
    create: { width: 200, height: 200, channels: 4, background: { r: 200, g: 60, b: 40, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 480, height: 480, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: product, left: 140, top: 140 }])
    .png()
    .toBuffer();
}

function setTitle(session: Session, id: string, payload: unknown) {
  return testApp.app.inject({
    method: 'PUT',
    url: `/api/images/${id}/title`,
    headers: session.auth,
    payload: payload as object,
  });
}

beforeAll(async () => {
  testApp = await buildTestApp(stack, { listen: true });
  worker = await startWorkerProcess(testApp.env);
  alice = await signIn(testApp, 'title-alice@example.com');
  bob = await signIn(testApp, 'title-bob@example.com');
  await grantCredits(testApp, alice.userId, 10);
  const uploaded = await upload(testApp, alice, await productPng(), 'IMG_2231.png');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  image = uploaded.json();
}, 120_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
});

describe('PUT /api/images/:id/title', () => {
  it('starts as null on a fresh upload', () => {
    expect(image.productTitle).toBeNull();
  });

  it("stores the owner's title, trimmed, and every image read carries it (by id and by fileId)", async () => {
    const response = await setTitle(alice, image.fileId, { productTitle: '  Blue   ceramic mug ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ _id: image._id, productTitle: 'Blue ceramic mug' });
    const one = await testApp.app.inject({ method: 'GET', url: `/api/images/${image._id}`, headers: alice.auth });
    expect(one.json().data.productTitle).toBe('Blue ceramic mug');
    const list = await testApp.app.inject({ method: 'GET', url: '/api/images', headers: alice.auth });
    expect(list.json().data[0].productTitle).toBe('Blue ceramic mug');
  });

  it("answers 404 for another user's image, and leaves its title alone", async () => {
    const response = await setTitle(bob, image._id, { productTitle: 'Stolen' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Blue ceramic mug');
    expect((await setTitle(bob, image.fileId, { productTitle: 'Stolen' })).statusCode).toBe(404);
    const still = await testApp.app.inject({ method: 'GET', url: `/api/images/${image._id}`, headers: alice.auth });
    expect(still.json().data.productTitle).toBe('Blue ceramic mug');
  });

  it('answers 404 for an image that does not exist', async () => {
    expect((await setTitle(alice, '00000000-0000-4000-8000-000000000000', { productTitle: 'Mug' })).statusCode).toBe(
      404,
    );
  });

  it('refuses a title that is too long with a clear 400, and keeps the old one', async () => {
    const response = await setTitle(alice, image._id, { productTitle: 'x'.repeat(PRODUCT_TITLE_MAX_LENGTH + 1) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'title_too_long',
      message: `The product title is too long: at most ${PRODUCT_TITLE_MAX_LENGTH} characters`,
    });
    expect((await setTitle(alice, image._id, { productTitle: 'x'.repeat(PRODUCT_TITLE_MAX_LENGTH) })).statusCode).toBe(
      200,
    );
    await setTitle(alice, image._id, { productTitle: 'Blue ceramic mug' });
  });

  it('refuses a body that is not a title with 400', async () => {
    for (const payload of [{}, { productTitle: { text: 'Mug' } }, { title: 'Mug' }]) {
      const response = await setTitle(alice, image._id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('invalid_title');
    }
  });

  it('refuses a signed-out caller', async () => {
    const response = await testApp.app.inject({
      method: 'PUT',
      url: `/api/images/${image._id}/title`,
      payload: { productTitle: 'Mug' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('is listed in the OpenAPI document with its response schema', async () => {
    const doc = await testApp.app.inject({ method: 'GET', url: '/api/docs/json' });
    const operation = doc.json().paths['/api/images/{id}/title']?.put;
    expect(operation?.responses?.['200']).toBeDefined();
    expect(operation?.responses?.['404']).toBeDefined();
  });

  it("hands the stored title to the engine as the product's hint", async () => {
    const started = await testApp.app.inject({
      method: 'POST',
      url: '/api/images/smart-generate-product-shots',
      headers: { ...alice.auth, 'idempotency-key': 'title-hint-run' },
      payload: { imageId: image._id, styleCount: 1 },
    });
    expect(started.statusCode, started.body).toBe(202);
    const { generationId } = started.json().data;
    const run = await eventually(
      async () => {
        const response = await testApp.app.inject({
          method: 'GET',
          url: `/api/generations/${generationId}`,
          headers: alice.auth,
        });
        return response.json().data.productInfo ? response.json().data : null;
      },
      60_000,
      "the run's product info",
    );
    // The local engine's product info takes the seller's title as given.
    expect(run.productInfo.productTitle).toBe('Blue ceramic mug');
  });

  it('clears the title when sent blank', async () => {
    const response = await setTitle(alice, image._id, { productTitle: '   ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.productTitle).toBeNull();
  });
});
