import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GENERATION_FAILED_MESSAGE } from '@prodshot/contracts';
import { generationOutputKey, uploadCutoutKey } from '@prodshot/storage';
import { buildWorkerDeps, dispatch, jobOf, sourceOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { removeBackground } from './remove-background.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

async function cutoutGeneration() {
  const userId = await t.newUser(1);
  const upload = await t.newUpload(userId);
  const generationId = await t.newGeneration(userId, 1, 1, { kind: 'remove-background', imageId: upload.imageId });
  return { userId, upload, generationId, payload: sourceOf(userId, generationId, upload) };
}

describe('remove-background', () => {
  it('stores the upload’s cutout as the one output, transparent around the product, and settles its credit', async () => {
    const { userId, upload, generationId, payload } = await cutoutGeneration();

    expect(await removeBackground.run(jobOf('remove-background', payload), t.deps)).toEqual({ generationId });

    const key = generationOutputKey(userId, generationId, 0, 'image/png');
    const output = await t.deps.store.get(key);
    expect(output.equals(await t.deps.store.get(uploadCutoutKey(upload.sourceKey)))).toBe(true);
    const { data } = await sharp(output).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
    expect(await t.deps.generations.find(generationId)).toMatchObject({
      status: 'complete',
      styles: [{ status: 'complete', result_key: key }],
    });
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -1 },
      { kind: 'settle', credits: 0 },
    ]);
  });

  it('refunds its credit once and fails the generation when the upload is gone', async () => {
    const { userId, upload, generationId, payload } = await cutoutGeneration();
    await t.deps.store.delete(upload.sourceKey);

    await expect(dispatch(t.deps, 'remove-background', payload)).rejects.toThrow();
    await removeBackground.onFinalFailure!(payload, 'again', t.deps);

    expect(await t.deps.generations.find(generationId)).toMatchObject({
      status: 'failed',
      error: GENERATION_FAILED_MESSAGE,
      styles: [{ status: 'failed' }],
    });
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -1 },
      { kind: 'refund', credits: 1 },
    ]);
    expect(await t.balance(userId)).toBe(1);
  });

  it('does no work and moves no credit when run again after it finished', async () => {
    const { userId, generationId, payload } = await cutoutGeneration();
    await removeBackground.run(jobOf('remove-background', payload), t.deps);

    await expect(dispatch(t.deps, 'remove-background', payload)).rejects.toThrow(/already settled/);

    expect(await t.deps.generations.find(generationId)).toMatchObject({ status: 'complete' });
    expect(await t.ledger(generationId)).toHaveLength(2);
    expect(await t.balance(userId)).toBe(0);
  });
});
