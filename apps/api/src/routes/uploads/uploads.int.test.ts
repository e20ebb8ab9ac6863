import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { ImagesRepository } from '@prodshot/db';
import { renditionKey } from '@prodshot/storage';
import { signIn, upload, type Session } from '../../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../../test-app.test-support.js';
import { storeEnvs } from '../stored-files.test-support.js';

const stack = inject('stack');

async function photo(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: '#3a6ea5' } })
    .png()
    .toBuffer();
}

describe.each(storeEnvs(stack))('GET /uploads/{id}?fallback=true on the $driver store', ({ driver, env }) => {
  let testApp: TestApp;
  let owner: Session;
  let other: Session;
  let image: { _id: string; fileId: string };

  beforeAll(async () => {
    testApp = await buildTestApp(stack, { env });
    expect(testApp.deps.store.driver).toBe(driver);
    owner = await signIn(testApp, `fallback-owner-${driver}@example.com`);
    other = await signIn(testApp, `fallback-other-${driver}@example.com`);
    const uploaded = await upload(testApp, owner, await photo(), 'blue.png');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    image = uploaded.json();
  });
  afterAll(() => testApp.close());

  it('answers the owner the image itself with the bearer token the app uses, by id and by fileId', async () => {
    for (const id of [image._id, image.fileId]) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/uploads/${id}?fallback=true`,
        headers: owner.auth,
      });
      expect(response.statusCode, id).toBe(200);
      // The upload as stored: re-encoded, an opaque photo as JPEG.
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers.location).toBeUndefined();
      expect(await sharp(response.rawPayload).metadata()).toMatchObject({ width: 320, height: 240 });
    }
  });

  it('answers its thumbnail once the upload has one', async () => {
    const row = await new ImagesRepository(testApp.deps.db).findOwned(owner.userId, image._id);
    const thumbnail = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6ea5' } })
      .webp()
      .toBuffer();
    await testApp.deps.store.put(renditionKey(row!.storage_key, 'thumbnail'), thumbnail, 'image/webp');
    await new ImagesRepository(testApp.deps.db).setRenditions(image._id);
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/uploads/${image._id}?fallback=true`,
      headers: owner.auth,
    });
    expect(response.headers['content-type']).toBe('image/webp');
    expect((await sharp(response.rawPayload).metadata()).width).toBe(64);
  });

  it("answers 404 for another user's image and 401 without a token", async () => {
    const foreign = await testApp.app.inject({
      method: 'GET',
      url: `/uploads/${image._id}?fallback=true`,
      headers: other.auth,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'image_not_found' });
    const anonymous = await testApp.app.inject({ method: 'GET', url: `/uploads/${image._id}?fallback=true` });
    expect(anonymous.statusCode).toBe(401);
  });
});
