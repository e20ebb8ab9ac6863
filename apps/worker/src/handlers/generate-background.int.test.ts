import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { JobPayloads } from '@prodshot/contracts';
import { ModelUnavailableError } from '@prodshot/imaging';
import { generationOutputKey } from '@prodshot/storage';
import { buildWorkerDeps, dispatch, jobOf, sourceOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { generateBackground } from './generate-background.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

async function backgroundGeneration() {
  const userId = await t.newUser(1);
  const upload = await t.newUpload(userId);
  const generationId = await t.newGeneration(userId, 1, 1, { kind: 'generate-background', imageId: upload.imageId });
  const payload: JobPayloads['generate-background'] = {
    ...sourceOf(userId, generationId, upload),
    backgroundType: 'lightwood',
    prompt: undefined,
    size: 1024,
  };
  return { userId, generationId, payload };
}

describe('generate-background', () => {
  it('renders one output at the plan’s size, records its seed and settles its credit', async () => {
    const { userId, generationId, payload } = await backgroundGeneration();

    expect(await generateBackground.run(jobOf('generate-background', payload), t.deps)).toEqual({ generationId });

    const key = generationOutputKey(userId, generationId, 0, 'image/png');
    expect(await sharp(await t.deps.store.get(key)).metadata()).toMatchObject({ width: 1024, height: 1024 });
    const generation = await t.deps.generations.find(generationId);
    expect(generation).toMatchObject({ status: 'complete', styles: [{ status: 'complete', result_key: key }] });
    expect(generation!.styles[0]!.seed).toEqual(expect.any(Number));
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -1 },
      { kind: 'settle', credits: 0 },
    ]);
  });

  it('refunds its credit once when the engine fails for good', async () => {
    const { userId, generationId, payload } = await backgroundGeneration();
    const failing = t.withEngine({ generate: () => Promise.reject(new ModelUnavailableError('local', 'test')) });

    await expect(dispatch(failing, 'generate-background', payload)).rejects.toBeInstanceOf(ModelUnavailableError);
    await generateBackground.onFinalFailure!(payload, 'again', failing);

    expect(await t.deps.generations.find(generationId)).toMatchObject({
      status: 'failed',
      styles: [{ status: 'failed' }],
    });
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -1 },
      { kind: 'refund', credits: 1 },
    ]);
    expect(await t.balance(userId)).toBe(1);
  });

  it('does no work once its generation was settled', async () => {
    const { generationId, payload } = await backgroundGeneration();
    await generateBackground.onFinalFailure!(payload, 'interrupted', t.deps);
    let renders = 0;
    const counting = t.withEngine({
      generate: (...args) => {
        renders += 1;
        return t.deps.engine.generate(...args);
      },
    });

    await expect(dispatch(counting, 'generate-background', payload)).rejects.toThrow(/already settled/);

    expect(renders).toBe(0);
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -1 },
      { kind: 'refund', credits: 1 },
    ]);
  });
});
