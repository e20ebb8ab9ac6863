import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { renditionKey } from '@prodshot/storage';
import { startWorkerProcess, type WorkerProcess } from '@prodshot/testing';
import { eventually, grantCredits, signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp;
let worker: WorkerProcess;
let seller: Session;
let imageId: string;
let generationId: string;

interface Urls {
  url: string;
  thumbnailUrl: string;
  previewUrl: string;
}

async function productPhoto(): Promise<Buffer> {
  const product = await sharp({ create: { width: 500, height: 900, channels: 3, background: '#c8102e' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1600, height: 1600, channels: 3, background: '#eeeeee' } })
    .composite([{ input: product, left: 550, top: 350 }])
    .jpeg()
    .toBuffer();
}

async function get(url: string) {
  const response = await testApp.app.inject({ method: 'GET', url, headers: seller.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** What the lists show for the upload and the shot. */
async function listed(): Promise<Record<'upload' | 'recent' | 'slot', Urls>> {
  const [image] = await get('/api/images');
  const [recent] = await get('/api/images/recent/generations');
  const [slot] = (await get(`/api/generations/${generationId}`)).styles;
  return { upload: image.originalImage, recent: { ...recent, url: recent.imageUrl }, slot };
}

async function longestSide(signedUrl: string): Promise<number> {
  const url = new URL(signedUrl);
  const response = await testApp.app.inject({ method: 'GET', url: url.pathname + url.search });
  expect(response.headers['content-type']).toBe('image/webp');
  const { width, height } = await sharp(response.rawPayload).metadata();
  return Math.max(width, height);
}

beforeAll(async () => {
  testApp = await buildTestApp(stack, { listen: true });
  worker = await startWorkerProcess(testApp.env);
  seller = await signIn(testApp, 'renditions@example.com');
  await grantCredits(testApp, seller.userId, 5);
  const uploaded = await upload(testApp, seller, await productPhoto(), 'bottle.jpg');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  imageId = uploaded.json()._id;
  const shot = await testApp.app.inject({
    method: 'POST',
    url: '/api/images/generate-product-shots',
    headers: seller.auth,
    payload: { imageId, backgroundType: 'marble', count: 1 },
  });
  expect(shot.statusCode, shot.body).toBe(200);
  generationId = shot.json().data.generationId;
  await eventually(
    async () => (await listed()).upload.thumbnailUrl.includes('thumbnail.webp') || null,
    30_000,
    "the upload's renditions",
  );
}, 120_000);

afterAll(async () => {
  await worker.stop('SIGKILL');
  await testApp.close();
});

describe('renditions of images stored before they existed', () => {
  it('are listed by their full URL at first, then made by a worker on that first need', async () => {
    // As a row and its files were before renditions: no flag, no files.
    const db = testApp.deps.db;
    await db.updateTable('images').set({ renditions: false }).where('id', '=', imageId).execute();
    await db
      .updateTable('generation_styles')
      .set({ renditions: false })
      .where('generation_id', '=', generationId)
      .execute();
    const keys = [
      (await db.selectFrom('images').select('storage_key').where('id', '=', imageId).executeTakeFirstOrThrow())
        .storage_key,
      (
        await db
          .selectFrom('generation_styles')
          .select('result_key')
          .where('generation_id', '=', generationId)
          .executeTakeFirstOrThrow()
      ).result_key!,
    ];
    for (const key of keys)
      for (const name of ['thumbnail', 'preview'] as const) await testApp.deps.store.delete(renditionKey(key, name));

    const before = await listed();
    for (const urls of Object.values(before)) {
      expect(urls.thumbnailUrl).toBe(urls.url);
      expect(urls.previewUrl).toBe(urls.url);
    }

    const after = await eventually(
      async () => {
        const now = await listed();
        return Object.values(now).every((urls) => urls.thumbnailUrl !== urls.url) ? now : null;
      },
      30_000,
      'renditions made on first need',
    );
    for (const urls of Object.values(after)) {
      expect(await longestSide(urls.thumbnailUrl)).toBe(512);
      expect(await longestSide(urls.previewUrl)).toBeLessThanOrEqual(1280);
      expect(urls.previewUrl).not.toBe(urls.thumbnailUrl);
    }
  });
});
