import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GENERATION_FAILED_MESSAGE } from '@prodshot/contracts';
import { ImagesRepository } from '@prodshot/db';
import { EmptyImageError } from '@prodshot/imaging';
import { renditionKey, uploadCutoutKey, uploadOutlineKey } from '@prodshot/storage';
import {
  buildWorkerDeps,
  dispatch,
  drawnProductPhoto,
  jobOf,
  type TestUpload,
  type TestWorkerDeps,
} from '../worker-deps.test-support.js';
import { analyseUpload } from './analyse-upload.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

function payloadOf(userId: string, upload: TestUpload) {
  return { userId, imageId: upload.imageId, sourceKey: upload.sourceKey, shotSize: 2048 as const };
}

const imageRow = (userId: string, imageId: string) => new ImagesRepository(t.deps.db).findOwned(userId, imageId);

describe('analyse-upload', () => {
  it('records the product it found, makes the cutout and the renditions, and tells the owner', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);

    expect(await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, upload)), t.deps)).toEqual({
      imageId: upload.imageId,
      needsFocus: false,
    });

    const row = await imageRow(userId, upload.imageId);
    expect(row).toMatchObject({ renditions: true, subject: { found: true, needsFocus: false } });
    expect(await t.deps.store.stat(uploadCutoutKey(upload.sourceKey))).not.toBeNull();
    expect(await t.deps.store.stat(renditionKey(upload.sourceKey, 'thumbnail'))).not.toBeNull();
    expect(t.events.filter((e) => e.event === 'image:subject' && e.payload.imageId === upload.imageId)).toEqual([
      expect.objectContaining({
        userId,
        payload: expect.objectContaining({ imageId: upload.imageId, status: 'ready', needsFocus: false }),
      }),
    ]);
  });

  it('makes the outline the seller checks before paying from that cutout, and sends it with the subject', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, upload)), t.deps);
    const key = uploadOutlineKey(upload.sourceKey);
    expect((await imageRow(userId, upload.imageId))?.outline).toEqual({
      key,
      unsure: false,
      reasons: [],
      confirmed: false,
      focus: null,
    });
    expect(await t.deps.store.stat(key)).not.toBeNull();
    const sent = t.events.find((e) => e.event === 'image:subject' && e.payload.imageId === upload.imageId);
    expect(sent?.payload).toMatchObject({
      outline: { url: expect.stringContaining('outline.webp'), unsure: false, needsConfirmation: false },
    });
  });

  it('records and sends what the photo was read as: no kind, so shot, by the local engine; an unsupported kind by a reader that sees one', async () => {
    const userId = await t.newUser(0);
    const local = await t.newUpload(userId);
    const juice = await t.newUpload(userId);
    // A hosted engine's vision model, reading the photo as food.
    const hosted = t.withEngine({ readKind: () => Promise.resolve({ kind: 'food', confidence: 0.9 }) });

    await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, local)), t.deps);
    await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, juice)), hosted);

    expect((await imageRow(userId, local.imageId))?.subject).toMatchObject({
      found: true,
      product: { kind: 'unknown', supported: true },
    });
    expect((await imageRow(userId, juice.imageId))?.subject).toMatchObject({
      found: true,
      product: { kind: 'food', supported: false },
    });
    const sent = t.events.find((e) => e.event === 'image:subject' && e.payload.imageId === juice.imageId);
    expect(sent?.payload).toMatchObject({ status: 'ready', product: { kind: 'food', supported: false } });
  });

  it('keeps the finding when the kind cannot be read (a hosted model down): no reading, the run reads again', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    const unreachable = t.withEngine({ readKind: () => Promise.reject(new Error('the vision model is down')) });

    await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, upload)), unreachable);

    const subject = (await imageRow(userId, upload.imageId))?.subject;
    expect(subject).toMatchObject({ found: true, needsFocus: false });
    expect(subject).not.toHaveProperty('product');
  });

  it('answers an unreadable upload as nothing found, without failing the job', async () => {
    const userId = await t.newUser(0);
    const photo = await drawnProductPhoto();
    // A PNG cut short: its header reads, its pixels do not.
    const upload = await t.newUpload(userId, photo.subarray(0, photo.length / 2));

    expect(await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, upload)), t.deps)).toEqual({
      imageId: upload.imageId,
      needsFocus: false,
    });

    // No tap could find a product in a file that cannot be read.
    expect(await imageRow(userId, upload.imageId)).toMatchObject({
      renditions: false,
      subject: { found: false, tapMayFind: false },
    });
    expect(await t.deps.store.stat(uploadCutoutKey(upload.sourceKey))).toBeNull();
  });

  it('answers a photo with nothing in it as refused, and the coach says why', async () => {
    const userId = await t.newUser(0);
    const plain = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d8d4cc' } })
      .png()
      .toBuffer();
    const upload = await t.newUpload(userId, plain);

    await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, upload)), t.deps);

    const row = await imageRow(userId, upload.imageId);
    expect(row!.subject).toEqual({
      found: false,
      error:
        'This image has nothing to work with: no product could be found in it. Please upload a photo of your product.',
      tapMayFind: true,
    });
    expect(row!.coach).toContainEqual(
      expect.objectContaining({
        code: 'no_product',
        message: 'There is nothing to cut out in this photo: no product could be found in it.',
      }),
    );
  });

  it('makes the cutout beside the finding, not after it, so the outline comes sooner', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    let findingDone = false,
      cutoutStartedDuringFinding = false;
    const watched = t.withEngine({
      findProduct: async (image) => {
        const found = await t.deps.engine.findProduct(image);
        findingDone = true;
        return found;
      },
      removeBackground: (image, options) => {
        cutoutStartedDuringFinding = !findingDone;
        return t.deps.engine.removeBackground(image, options);
      },
    });

    await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, upload)), watched);

    expect(cutoutStartedDuringFinding).toBe(true);
    expect(await t.deps.store.stat(uploadCutoutKey(upload.sourceKey))).not.toBeNull();
    expect((await imageRow(userId, upload.imageId))?.outline).toMatchObject({ confirmed: false });
  });

  it('keeps no cutout of a photo the finding refuses, even one a cutout service would cut', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    // The local finding refuses it; a hosted cutout (fal's) cuts whatever it is sent.
    const refusing = t.withEngine({ findProduct: () => Promise.reject(new EmptyImageError()) });

    await analyseUpload.run(jobOf('analyse-upload', payloadOf(userId, upload)), refusing);

    expect(await imageRow(userId, upload.imageId)).toMatchObject({ subject: { found: false }, outline: null });
    expect(await t.deps.store.stat(uploadCutoutKey(upload.sourceKey))).toBeNull();
  });

  it('records why it failed for good, so the upload screens stop waiting', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    const failing = t.withEngine({ findProduct: () => Promise.reject(new Error('the engine broke')) });

    await expect(dispatch(failing, 'analyse-upload', payloadOf(userId, upload))).rejects.toThrow('the engine broke');
    // Its renditions were written before it failed, not left writing behind it.
    expect(await t.deps.store.stat(renditionKey(upload.sourceKey, 'thumbnail'))).not.toBeNull();
    expect(await t.deps.store.stat(renditionKey(upload.sourceKey, 'preview'))).not.toBeNull();

    const row = await imageRow(userId, upload.imageId);
    expect(row!.subject).toEqual({ found: false, error: GENERATION_FAILED_MESSAGE });
    expect(t.events.filter((e) => e.event === 'image:subject' && e.payload.imageId === upload.imageId)).toHaveLength(1);
  });
});
