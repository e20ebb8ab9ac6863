import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emptyPhotoWarning } from '@prodshot/contracts';
import type { CutoutOptions } from '@prodshot/imaging';
import { ImagesRepository } from '@prodshot/db';
import { uploadCutoutKey, uploadOutlineKey } from '@prodshot/storage';
import { buildWorkerDeps, jobOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { makeOutlineJob } from './make-outline.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

const imageRow = (userId: string, imageId: string) => new ImagesRepository(t.deps.db).findOwned(userId, imageId);

/** The deps with an engine that records the taps each cutout was asked for. */
function countingTaps(asked: CutoutOptions['taps'][]) {
  return t.withEngine({
    removeBackground: (image: Buffer, options?: CutoutOptions) => {
      asked.push(options?.taps);
      return t.deps.engine.removeBackground(image, options);
    },
  });
}

describe('make-outline', () => {
  it('cuts out for the whole list of taps, stores the outline under the list’s own key and records the taps in order', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    const taps = [
      { x: 0.5, y: 0.4, keep: true },
      { x: 0.1, y: 0.9, keep: false },
    ];
    const asked: CutoutOptions['taps'][] = [];
    await makeOutlineJob.run(
      jobOf('make-outline', { userId, imageId: upload.imageId, sourceKey: upload.sourceKey, focus: taps }),
      countingTaps(asked),
    );
    expect(asked).toEqual([taps]);
    const key = uploadOutlineKey(upload.sourceKey, taps);
    expect(key).toMatch(/outline-taps-[0-9a-f]{16}\.webp$/);
    expect((await imageRow(userId, upload.imageId))?.outline).toEqual({
      key,
      unsure: false,
      reasons: [],
      confirmed: false,
      focus: taps,
    });
    expect(await t.deps.store.stat(key)).not.toBeNull();
    expect(await t.deps.store.stat(uploadCutoutKey(upload.sourceKey, taps))).not.toBeNull();

    // The same list again finds its cutout rather than cutting out again.
    await makeOutlineJob.run(
      jobOf('make-outline', { userId, imageId: upload.imageId, sourceKey: upload.sourceKey, focus: taps }),
      countingTaps(asked),
    );
    expect(asked).toHaveLength(1);
  });

  it('reads a job queued before taps, with a single point, as one keep tap', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    const asked: CutoutOptions['taps'][] = [];
    await makeOutlineJob.run(
      jobOf('make-outline', {
        userId,
        imageId: upload.imageId,
        sourceKey: upload.sourceKey,
        focus: { x: 0.5, y: 0.4 },
      }),
      countingTaps(asked),
    );
    const taps = [{ x: 0.5, y: 0.4, keep: true }];
    expect(asked).toEqual([taps]);
    expect((await imageRow(userId, upload.imageId))?.outline).toMatchObject({
      key: uploadOutlineKey(upload.sourceKey, taps),
      focus: taps,
    });
    expect(uploadOutlineKey(upload.sourceKey, taps)).toMatch(/outline-500-400\.webp$/);
  });

  it('overturns a refusal when the seller’s keep tap finds the product, and tells the owner', async () => {
    const userId = await t.newUser(0);
    const upload = await t.newUpload(userId);
    const images = new ImagesRepository(t.deps.db);
    await images.setSubject(upload.imageId, { found: false, error: 'no product', tapMayFind: true }, [
      emptyPhotoWarning('no product could be found in it', 'unknown'),
    ]);
    const taps = [{ x: 0.5, y: 0.4, keep: true }];

    await makeOutlineJob.run(
      jobOf('make-outline', { userId, imageId: upload.imageId, sourceKey: upload.sourceKey, focus: taps }),
      t.deps,
    );

    const row = await imageRow(userId, upload.imageId);
    expect(row).toMatchObject({ subject: { found: true, needsFocus: false }, outline: { focus: taps } });
    expect(row?.coach.map((warning) => warning.code)).not.toContain('no_product');
    expect(t.events.filter((e) => e.event === 'image:subject' && e.payload.imageId === upload.imageId)).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ status: 'ready', outline: expect.anything() }) }),
    ]);

    // A found upload stays as the engine found it: no second event.
    await makeOutlineJob.run(
      jobOf('make-outline', { userId, imageId: upload.imageId, sourceKey: upload.sourceKey, focus: taps }),
      t.deps,
    );
    expect(t.events.filter((e) => e.event === 'image:subject' && e.payload.imageId === upload.imageId)).toHaveLength(1);
  });
});
