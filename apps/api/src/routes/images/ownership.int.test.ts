import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { renditionKey } from '@prodshot/storage';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import {
  connectSocket,
  eventually,
  grantCredits,
  signIn,
  upload,
  type ClientSocket,
  type RecordedEvent,
  type Session,
} from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let alice: Session;
let bob: Session;
let aliceImage: { _id: string; fileId: string };
let aliceGenerationId: string;
let bobSocket: ClientSocket;
let bobEvents: RecordedEvent[];

async function productPng(): Promise<Buffer> {
  const product = await sharp({
    create: { width: 300, height: 300, channels: 4, background: { r: 30, g: 90, b: 200, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 640, height: 640, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: product, left: 170, top: 170 }])
    .png()
    .toBuffer();
}

async function expectWebp(signedUrl: string, longestSide: number): Promise<void> {
  const url = new URL(signedUrl);
  const response = await testApp.app.inject({ method: 'GET', url: url.pathname + url.search });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('image/webp');
  const { width, height } = await sharp(response.rawPayload).metadata();
  expect(Math.max(width, height)).toBe(longestSide);
}

beforeAll(async () => {
  testApp = await buildTestApp(stack, { listen: true });
  worker = await startWorkerProcess(testApp.env);
  alice = await signIn(testApp, 'alice@example.com');
  bob = await signIn(testApp, 'bob@example.com');
  await grantCredits(testApp, alice.userId, 10);
  await grantCredits(testApp, bob.userId, 10);
  ({ socket: bobSocket, events: bobEvents } = await connectSocket(testApp, bob.token));
  const { events: aliceEvents, socket: aliceSocket } = await connectSocket(testApp, alice.token);
  const uploaded = await upload(testApp, alice, await productPng(), 'alice.png');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  aliceImage = uploaded.json();
  const shot = await testApp.app.inject({
    method: 'POST',
    url: '/api/images/generate-product-shots',
    headers: alice.auth,
    payload: { imageId: aliceImage._id, backgroundType: 'marble', count: 1 },
  });
  expect(shot.statusCode, shot.body).toBe(200);
  aliceGenerationId = shot.json().data.generationId;
  await eventually(() => aliceEvents.find((e) => e.event === 'generation:done'), 30_000, "alice's generation:done");
  aliceSocket.disconnect();
}, 120_000);

afterAll(async () => {
  bobSocket.disconnect();
  await worker.stop('SIGKILL');
  await testApp.close();
});

describe("another user's images and generations", () => {
  it('are not listed', async () => {
    const images = await testApp.app.inject({ method: 'GET', url: '/api/images', headers: bob.auth });
    expect(images.json().data).toEqual([]);
    const recent = await testApp.app.inject({
      method: 'GET',
      url: '/api/images/recent/generations',
      headers: bob.auth,
    });
    expect(recent.json().data).toEqual([]);
  });

  it('answer 404 to reads, by id and by fileId', async () => {
    for (const url of [
      `/api/images/${aliceImage._id}`,
      `/api/images/${aliceImage.fileId}`,
      `/api/generations/${aliceGenerationId}`,
      `/uploads/${aliceImage._id}`,
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: bob.auth });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain(aliceImage.fileId);
    }
  });

  it('cannot be deleted', async () => {
    const response = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/images/${aliceImage._id}`,
      headers: bob.auth,
    });
    expect(response.statusCode).toBe(404);
    const still = await testApp.app.inject({
      method: 'GET',
      url: `/api/images/${aliceImage._id}`,
      headers: alice.auth,
    });
    expect(still.statusCode).toBe(200);
  });

  it('cannot be generated from, and cost nothing for trying', async () => {
    const attempts = [
      { url: '/api/images/generate-product-shots', payload: { imageId: aliceImage._id, backgroundType: 'studio' } },
      { url: '/api/images/smart-generate-product-shots', payload: { fileId: aliceImage.fileId } },
      { url: '/api/images/generate-product-style-recommendations', payload: { imageId: aliceImage._id } },
      {
        url: '/api/images/generate-single-product-shot',
        payload: {
          generationId: aliceGenerationId,
          imageId: aliceImage._id,
          stylePrompt: 'marble',
          styleName: 'Marble',
          styleIndex: 1,
        },
      },
      { url: `/api/images/${aliceImage._id}/remove-background`, payload: {} },
      { url: `/api/images/${aliceImage._id}/generate-background`, payload: { backgroundType: 'silk' } },
    ];
    for (const attempt of attempts) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: attempt.url,
        headers: bob.auth,
        payload: attempt.payload,
      });
      expect(response.statusCode, attempt.url).toBe(404);
    }
    const rows = await testApp.deps.db
      .selectFrom('generations')
      .select('id')
      .where('user_id', '=', bob.userId)
      .execute();
    expect(rows).toEqual([]);
  });

  it("never reach the other user's socket", () => {
    expect(bobEvents.filter((e) => e.event !== 'credits:update')).toEqual([]);
    expect(bobEvents.some((e) => JSON.stringify(e.payload).includes(aliceGenerationId))).toBe(false);
  });

  it('refuses a socket without a valid token', async () => {
    await expect(connectSocket(testApp, 'not-a-token')).rejects.toThrow(/Unauthorized/);
  });
});

describe('the owner', () => {
  it('sees the manual shot in recent generations and can fetch it', async () => {
    const recent = await testApp.app.inject({
      method: 'GET',
      url: '/api/images/recent/generations',
      headers: alice.auth,
    });
    const [latest] = recent.json().data;
    expect(latest.generationId).toBe(aliceGenerationId);
    const url = new URL(latest.imageUrl);
    const image = await testApp.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(image.statusCode).toBe(200);
  });

  it('sees the renditions of the shot and of the upload, once the worker has made them', async () => {
    const recent = await testApp.app.inject({
      method: 'GET',
      url: '/api/images/recent/generations',
      headers: alice.auth,
    });
    const [latest] = recent.json().data;
    await expectWebp(latest.thumbnailUrl, 512);
    // The test engine paints 1024 px shots, and a preview never enlarges.
    await expectWebp(latest.previewUrl, 1024);
    const listed = await eventually(
      async () => {
        const images = await testApp.app.inject({ method: 'GET', url: '/api/images', headers: alice.auth });
        const [image] = images.json().data;
        return image.originalImage.thumbnailUrl !== image.originalImage.url ? image.originalImage : null;
      },
      30_000,
      "the upload's renditions",
    );
    await expectWebp(listed.thumbnailUrl, 512);
    await expectWebp(listed.previewUrl, 640);
  });

  it('deletes an upload, its stored file and its renditions, keeping the generation in history', async () => {
    const before = await testApp.deps.db
      .selectFrom('images')
      .select('storage_key')
      .where('id', '=', aliceImage._id)
      .executeTakeFirstOrThrow();
    expect(await testApp.deps.store.stat(renditionKey(before.storage_key, 'thumbnail'))).not.toBeNull();
    const response = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/images/${aliceImage._id}`,
      headers: alice.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(await testApp.deps.store.stat(before.storage_key)).toBeNull();
    expect(await testApp.deps.store.stat(renditionKey(before.storage_key, 'thumbnail'))).toBeNull();
    expect(await testApp.deps.store.stat(renditionKey(before.storage_key, 'preview'))).toBeNull();
    const generation = await testApp.app.inject({
      method: 'GET',
      url: `/api/generations/${aliceGenerationId}`,
      headers: alice.auth,
    });
    expect(generation.json().data.status).toBe('complete');
  });
});
