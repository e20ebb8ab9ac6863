import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { JobPayloads } from '@prodshot/contracts';
import { ModelUnavailableError } from '@prodshot/imaging';
import { generationOutputKey, renditionKey } from '@prodshot/storage';
import { buildWorkerDeps, dispatch, jobOf, sourceOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { styleShot } from './style-shot.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

/** A smart generation fanned out into `styles` slots, each paid for, and the style-shot job of each. */
async function fannedOut(styles: number) {
  const userId = await t.newUser(styles);
  const upload = await t.newUpload(userId);
  const generationId = await t.newGeneration(userId, styles, styles, { kind: 'smart', imageId: upload.imageId });
  const payload = (index: number): JobPayloads['style-shot'] => ({
    ...sourceOf(userId, generationId, upload),
    styleIndex: index,
    styleName: `Style ${index}`,
    stylePrompt: 'on a marble counter in soft morning light',
    size: 1024,
  });
  return { userId, generationId, payload };
}

const statuses = async (generationId: string) =>
  (await t.deps.generations.styles(generationId)).map((slot) => slot.status);

describe('style-shot', () => {
  it('renders its one slot, settles its credit and finishes the generation with the last slot', async () => {
    const { userId, generationId, payload } = await fannedOut(2);

    expect(await styleShot.run(jobOf('style-shot', payload(1)), t.deps)).toEqual({ generationId, index: 1 });
    expect(await statuses(generationId)).toEqual(['queued', 'complete']);
    expect(await t.deps.generations.isOpen(generationId)).toBe(true);
    const key = generationOutputKey(userId, generationId, 1, 'image/png');
    expect(await t.deps.store.stat(renditionKey(key, 'preview'))).not.toBeNull();

    await styleShot.run(jobOf('style-shot', payload(0)), t.deps);
    expect(await t.deps.generations.find(generationId)).toMatchObject({ status: 'complete' });
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -2 },
      { kind: 'settle', credits: 0 },
      { kind: 'settle', credits: 0 },
    ]);
    const progress = t.events
      .filter((e) => e.payload.generationId === generationId && e.payload.index === 0 && e.event === 'generation:style')
      .map((e) => e.payload.progress ?? e.payload.status);
    expect(progress).toEqual(['running', 30, 90, 'complete']);
  });

  it('run again for a slot already stored, renders nothing and settles nothing more', async () => {
    const { generationId, payload } = await fannedOut(2);
    await styleShot.run(jobOf('style-shot', payload(0)), t.deps);
    let renders = 0;
    const counting = t.withEngine({
      generate: (...args) => {
        renders += 1;
        return t.deps.engine.generate(...args);
      },
    });

    await styleShot.run(jobOf('style-shot', payload(0)), counting);

    expect(renders).toBe(0);
    expect(await statuses(generationId)).toEqual(['complete', 'queued']);
    expect((await t.ledger(generationId)).filter((move) => move.kind === 'settle')).toHaveLength(1);
  });

  it('fails and refunds only its own slot when it fails for good, once', async () => {
    const { userId, generationId, payload } = await fannedOut(2);
    const failing = t.withEngine({ generate: () => Promise.reject(new ModelUnavailableError('local', 'test')) });

    await expect(dispatch(failing, 'style-shot', payload(0))).rejects.toBeInstanceOf(ModelUnavailableError);
    await styleShot.onFinalFailure!(payload(0), 'again', t.deps);

    const generation = await t.deps.generations.find(generationId);
    expect(generation!.styles.map((slot) => [slot.status, slot.error])).toEqual([
      ['failed', new ModelUnavailableError('local', 'test').message],
      ['queued', null],
    ]);
    expect(generation!.status).not.toMatch(/complete|failed/);
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -2 },
      { kind: 'refund', credits: 1 },
    ]);
    expect(await t.balance(userId)).toBe(1);

    // The other style still renders and settles the generation: one output made, one refunded.
    await styleShot.run(jobOf('style-shot', payload(1)), t.deps);
    expect(await t.deps.generations.find(generationId)).toMatchObject({ status: 'complete' });
    expect(await t.balance(userId)).toBe(1);
  });

  it('does no work once its generation was settled', async () => {
    const { userId, generationId, payload } = await fannedOut(1);
    await styleShot.onFinalFailure!(payload(0), 'interrupted', t.deps);
    const ledger = await t.ledger(generationId);

    await expect(dispatch(t.deps, 'style-shot', payload(0))).rejects.toThrow(/already settled/);

    expect(await statuses(generationId)).toEqual(['failed']);
    expect(await t.deps.store.stat(generationOutputKey(userId, generationId, 0, 'image/png'))).toBeNull();
    expect(await t.ledger(generationId)).toEqual(ledger);
  });
});
