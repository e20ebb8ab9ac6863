import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { JobPayloads } from '@prodshot/contracts';
import { ModelUnavailableError } from '@prodshot/imaging';
import { generationOutputKey, renditionKey, uploadCutoutKey } from '@prodshot/storage';
import {
  buildWorkerDeps,
  dispatch,
  jobOf,
  sourceOf,
  type TestUpload,
  type TestWorkerDeps,
} from '../worker-deps.test-support.js';
import { productShot } from './product-shot.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

/** A seller with `count` credits, their upload and a manual generation of `count` outputs, paid for. */
async function manualGeneration(count: number) {
  const userId = await t.newUser(count);
  const upload = await t.newUpload(userId);
  const generationId = await t.newGeneration(userId, count, count, { kind: 'manual', imageId: upload.imageId });
  return { userId, upload, generationId, payload: payloadFor(userId, generationId, upload, count) };
}

function payloadFor(
  userId: string,
  generationId: string,
  upload: TestUpload,
  count: number,
): JobPayloads['product-shot'] {
  return {
    ...sourceOf(userId, generationId, upload),
    backgroundType: 'studio',
    prompt: undefined,
    count,
    upscaleImageFirst: false,
    size: 1024,
  };
}

const statuses = async (generationId: string) =>
  (await t.deps.generations.styles(generationId)).map((slot) => slot.status);

describe('product-shot', () => {
  it('stores every output with its renditions, settles each credit and announces the finished generation', async () => {
    const { userId, upload, generationId, payload } = await manualGeneration(2);
    const job = jobOf('product-shot', payload);

    expect(await productShot.run(job, t.deps)).toEqual({ generationId });

    const generation = await t.deps.generations.find(generationId);
    expect(generation).toMatchObject({ status: 'complete', error: null });
    for (const index of [0, 1]) {
      const key = generationOutputKey(userId, generationId, index, 'image/png');
      expect(generation!.styles[index]).toMatchObject({ status: 'complete', result_key: key });
      expect(await t.deps.store.stat(key)).not.toBeNull();
      expect(await t.deps.store.stat(renditionKey(key, 'thumbnail'))).not.toBeNull();
    }
    // The cutout is made once, for this and every later generation from the upload.
    expect(await t.deps.store.stat(uploadCutoutKey(upload.sourceKey))).not.toBeNull();
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -2 },
      { kind: 'settle', credits: 0 },
      { kind: 'settle', credits: 0 },
    ]);
    expect(await t.balance(userId)).toBe(0);
    expect((job as unknown as { progress: number[] }).progress).toEqual([50, 100]);
    const mine = t.events.filter((e) => e.payload.generationId === generationId);
    expect(
      mine.filter((e) => e.event === 'generation:style' && e.payload.status === 'complete').map((e) => e.payload.index),
    ).toEqual([0, 1]);
    expect(mine.at(-1)).toMatchObject({
      userId,
      event: 'generation:done',
      payload: { status: 'complete', error: null },
    });
  });

  it('refunds every output and fails the generation once, when the engine fails for good', async () => {
    const { userId, generationId, payload } = await manualGeneration(2);
    const failing = t.withEngine({ generate: () => Promise.reject(new ModelUnavailableError('local', 'test')) });

    await expect(dispatch(failing, 'product-shot', payload)).rejects.toBeInstanceOf(ModelUnavailableError);
    // The failed event settles it again (settleFailedJob): nothing moves twice.
    await productShot.onFinalFailure!(payload, 'again', failing);

    expect(await statuses(generationId)).toEqual(['failed', 'failed']);
    const generation = await t.deps.generations.find(generationId);
    expect(generation).toMatchObject({ status: 'failed', error: new ModelUnavailableError('local', 'test').message });
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -2 },
      { kind: 'refund', credits: 1 },
      { kind: 'refund', credits: 1 },
    ]);
    expect(await t.balance(userId)).toBe(2);
    expect(t.events.filter((e) => e.userId === userId && e.event === 'credits:update')).toHaveLength(1);
    expect(
      t.events.filter((e) => e.payload.generationId === generationId && e.event === 'generation:done'),
    ).toHaveLength(1);
  });

  it('leaves a failed attempt retryable without settling it, and the retry renders only what is missing', async () => {
    const { userId, generationId, payload } = await manualGeneration(2);
    let calls = 0;
    const flaky = t.withEngine({
      generate: (options, context) => {
        calls += 1;
        return calls === 2
          ? Promise.reject(new ModelUnavailableError('local', 'test'))
          : t.deps.engine.generate(options, context);
      },
    });

    await expect(dispatch(flaky, 'product-shot', payload, { attemptsMade: 0, attempts: 3 })).rejects.toBeInstanceOf(
      ModelUnavailableError,
    );
    // Not the last attempt: nothing refunded, the generation still open for the retry.
    expect(await t.deps.generations.isOpen(generationId)).toBe(true);
    expect(await t.balance(userId)).toBe(0);

    await dispatch(flaky, 'product-shot', payload, { attemptsMade: 1, attempts: 3 });
    expect(calls).toBe(3);
    expect(await statuses(generationId)).toEqual(['complete', 'complete']);
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -2 },
      { kind: 'settle', credits: 0 },
      { kind: 'settle', credits: 0 },
    ]);
  });

  it('does no work and moves no credit when run again after its generation settled', async () => {
    const { userId, generationId, payload } = await manualGeneration(1);
    await productShot.run(jobOf('product-shot', payload), t.deps);
    const ledger = await t.ledger(generationId);
    let renders = 0;
    const counting = t.withEngine({
      generate: (options, context) => {
        renders += 1;
        return t.deps.engine.generate(options, context);
      },
    });

    await expect(dispatch(counting, 'product-shot', payload)).rejects.toThrow(/already settled/);
    expect(renders).toBe(0);
    expect(await t.ledger(generationId)).toEqual(ledger);
    expect(await t.balance(userId)).toBe(0);
    expect(await t.deps.generations.find(generationId)).toMatchObject({ status: 'complete' });
  });
});
