import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { downloadCopyKey, generationOutputKey, renditionKey } from '@prodshot/storage';
import { buildWorkerDeps, type TestWorkerDeps } from '../worker-deps.test-support.js';
import {
  assertGenerationOpen,
  failOpenSlots,
  failSlot,
  finishIfDone,
  GenerationSettledError,
  refundAllHeld,
  refundUnused,
  renderSlot,
  slotSeed,
} from './slot-lifecycle.js';

const stack = inject('stack');
let t: TestWorkerDeps;
let png: { image: Buffer; mimeType: 'image/png' };
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
  png = {
    image: await sharp({
      create: { width: 2048, height: 1536, channels: 4, background: { r: 40, g: 120, b: 60, alpha: 1 } },
    })
      .png()
      .toBuffer(),
    mimeType: 'image/png',
  };
});
afterAll(() => t.close());

async function slotStatuses(generationId: string) {
  return (await t.deps.generations.styles(generationId)).map((s) => s.status);
}

describe('output slots', () => {
  it('never announces a slot complete when it was settled while it rendered', async () => {
    const userId = await t.newUser(2);
    const generationId = await t.newGeneration(userId, 1, 1);
    const slot = { userId, generationId, index: 0 };
    // The sweeper gives up on the slot (and refunds it) while the render is still going.
    await renderSlot(t.deps, slot, async () => {
      await failSlot(t.deps, slot, 'interrupted');
      return png;
    });
    expect(await slotStatuses(generationId)).toEqual(['failed']);
    expect(t.events.filter((e) => e.payload.generationId === generationId && e.payload.status === 'complete')).toEqual(
      [],
    );
    expect(await t.balance(userId)).toBe(2);
  });

  it('refunds one generation once, however many paths give it back', async () => {
    const userId = await t.newUser(3);
    const generationId = await t.newGeneration(userId, 3, 3);
    const before = t.deps.metrics.refunded;
    await failSlot(t.deps, { userId, generationId, index: 0 }, 'failed');
    await failSlot(t.deps, { userId, generationId, index: 0 }, 'failed again');
    await failOpenSlots(t.deps, userId, generationId, 'the rest failed');
    await failOpenSlots(t.deps, userId, generationId, 'and again');
    await refundAllHeld(t.deps, userId, generationId, 'sweep');
    expect(await t.balance(userId)).toBe(3);
    expect(t.deps.metrics.refunded - before).toBe(3);
    const rows = await t.deps.db
      .selectFrom('credit_ledger')
      .select('addon_delta')
      .where('generation_id', '=', generationId)
      .where('kind', '=', 'refund')
      .execute();
    expect(rows.map((r) => r.addon_delta).sort()).toEqual([1, 1, 1]);
  });

  it('keeps the credit of every output that was stored, whatever is refunded after it', async () => {
    const userId = await t.newUser(3);
    const generationId = await t.newGeneration(userId, 3, 3);
    await renderSlot(t.deps, { userId, generationId, index: 0 }, async () => png);
    await renderSlot(t.deps, { userId, generationId, index: 1 }, async () => png);
    await refundAllHeld(t.deps, userId, generationId, 'sweep');
    await failOpenSlots(t.deps, userId, generationId, 'failed');
    expect(await slotStatuses(generationId)).toEqual(['complete', 'complete', 'failed']);
    expect(await t.balance(userId)).toBe(1);
    expect(
      t.events.filter((e) => e.payload.generationId === generationId && e.payload.status === 'complete'),
    ).toHaveLength(2);
  });

  it('tells the seller each change once, in order, and nothing for what did not change', async () => {
    const userId = await t.newUser(3);
    const generationId = await t.newGeneration(userId, 3, 3);
    const from = t.events.length;
    const refundedBefore = t.deps.metrics.refunded;
    let renders = 0;
    const render = async (progress: (pct: number) => Promise<void>) => {
      renders += 1;
      await progress(50);
      return png;
    };
    await renderSlot(t.deps, { userId, generationId, index: 0 }, render);
    await renderSlot(t.deps, { userId, generationId, index: 0 }, render);
    await failSlot(t.deps, { userId, generationId, index: 1 }, 'the model broke');
    await failSlot(t.deps, { userId, generationId, index: 1 }, 'again');
    await failOpenSlots(t.deps, userId, generationId, 'the shared step failed');
    await failOpenSlots(t.deps, userId, generationId, 'again');
    await refundAllHeld(t.deps, userId, generationId, 'sweep');
    await refundUnused(t.deps, userId, generationId, 0, 'unused');
    await finishIfDone(t.deps, userId, generationId);
    await finishIfDone(t.deps, userId, generationId);

    expect(renders).toBe(1);
    expect(t.events.slice(from).map((e) => [e.event, e.payload])).toEqual([
      ['generation:style', { generationId, index: 0, status: 'running' }],
      ['generation:style', { generationId, index: 0, status: 'progress', progress: 50 }],
      [
        'generation:style',
        {
          generationId,
          index: 0,
          status: 'complete',
          url: expect.any(String),
          thumbnailUrl: expect.any(String),
          previewUrl: expect.any(String),
        },
      ],
      ['credits:update', { subscriptionCredits: 0, addOnCredits: 1 }],
      ['generation:style', { generationId, index: 1, status: 'failed', error: 'the model broke' }],
      ['credits:update', { subscriptionCredits: 0, addOnCredits: 2 }],
      ['generation:style', { generationId, index: 2, status: 'failed', error: 'the shared step failed' }],
      ['generation:done', { generationId, status: 'complete', error: null }],
    ]);
    expect(t.deps.metrics.refunded - refundedBefore).toBe(2);
    expect(await t.balance(userId)).toBe(2);
  });

  it('announces and counts credits only when they moved, and says why a failed generation failed', async () => {
    const userId = await t.newUser(3);
    const generationId = await t.newGeneration(userId, 3, 3);
    const from = t.events.length;
    const refundedBefore = t.deps.metrics.refunded;
    // The sweeper gives back all that is left first: the slots that fail after it move nothing.
    await refundAllHeld(t.deps, userId, generationId, 'sweep');
    await failSlot(t.deps, { userId, generationId, index: 0 }, 'the model broke');
    await failOpenSlots(t.deps, userId, generationId, 'the shared step failed');
    await finishIfDone(t.deps, userId, generationId, 'the shared step failed');
    expect(t.events.slice(from).map((e) => [e.event, e.payload])).toEqual([
      ['credits:update', { subscriptionCredits: 0, addOnCredits: 3 }],
      ['generation:style', { generationId, index: 0, status: 'failed', error: 'the model broke' }],
      ['generation:style', { generationId, index: 1, status: 'failed', error: 'the shared step failed' }],
      ['generation:style', { generationId, index: 2, status: 'failed', error: 'the shared step failed' }],
      ['generation:done', { generationId, status: 'failed', error: 'the shared step failed' }],
    ]);
    expect(t.deps.metrics.refunded - refundedBefore).toBe(3);
  });

  it('refunds without a metrics sink too', async () => {
    const userId = await t.newUser(2);
    const generationId = await t.newGeneration(userId, 2, 2);
    await refundUnused({ ...t.deps, metrics: undefined }, userId, generationId, 2, 'unused');
    expect(await t.balance(userId)).toBe(2);
    expect(t.events.at(-1)).toMatchObject({
      userId,
      event: 'credits:update',
      payload: { subscriptionCredits: 0, addOnCredits: 2 },
    });
  });

  it('stores the thumbnail and preview beside the shot before announcing it, and links all three', async () => {
    const userId = await t.newUser(1);
    const generationId = await t.newGeneration(userId, 1, 1);
    await renderSlot(t.deps, { userId, generationId, index: 0 }, async () => png);
    const key = generationOutputKey(userId, generationId, 0, 'image/png');
    const thumbnail = await t.deps.store.get(renditionKey(key, 'thumbnail'));
    const preview = await t.deps.store.get(renditionKey(key, 'preview'));
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 512, height: 384 });
    expect(await sharp(preview).metadata()).toMatchObject({ format: 'webp', width: 1280, height: 960 });
    const [style] = await t.deps.generations.styles(generationId);
    expect(style).toMatchObject({ status: 'complete', renditions: true });
    const complete = t.events.find((e) => e.payload.generationId === generationId && e.payload.status === 'complete')!
      .payload as Record<string, string>;
    expect(complete.thumbnailUrl).toContain(encodeURIComponent(generationId) + '/0/thumbnail.webp');
    expect(complete.previewUrl).toContain(encodeURIComponent(generationId) + '/0/preview.webp');
    expect(complete.url).toContain(encodeURIComponent(generationId) + '/0.png');
  });

  it('stores a full-size JPEG beside a PNG shot for Download, and records both sizes', async () => {
    const userId = await t.newUser(1);
    const generationId = await t.newGeneration(userId, 1, 1);
    await renderSlot(t.deps, { userId, generationId, index: 0 }, async () => png);
    const key = generationOutputKey(userId, generationId, 0, 'image/png');
    const [style] = await t.deps.generations.styles(generationId);
    expect(style).toMatchObject({ result_bytes: png.image.length, download_key: downloadCopyKey(key, 'image/jpeg') });
    const copy = await t.deps.store.get(style!.download_key!);
    expect(style!.download_bytes).toBe(copy.length);
    expect(await sharp(copy).metadata()).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
    expect(copy.length).toBeLessThan(png.image.length);
  });

  it("records the seed an output's scene was rendered with (More like this renders it again), and none when the engine names none", async () => {
    const userId = await t.newUser(2);
    const generationId = await t.newGeneration(userId, 2, 2);
    await renderSlot(t.deps, { userId, generationId, index: 0 }, async () => ({ ...png, seed: 1234567 }));
    await renderSlot(t.deps, { userId, generationId, index: 1 }, async () => png);
    expect((await t.deps.generations.styles(generationId)).map((style) => style.seed)).toEqual([1234567, null]);
  });

  it('records a JPEG output as its own download', async () => {
    const userId = await t.newUser(1);
    const generationId = await t.newGeneration(userId, 1, 1);
    const jpeg = await sharp(png.image).jpeg().toBuffer();
    await renderSlot(t.deps, { userId, generationId, index: 0 }, async () => ({ image: jpeg, mimeType: 'image/jpeg' }));
    const [style] = await t.deps.generations.styles(generationId);
    expect(style).toMatchObject({
      result_key: generationOutputKey(userId, generationId, 0, 'image/jpeg'),
      result_bytes: jpeg.length,
      download_key: null,
      download_bytes: null,
    });
  });

  it('lets work on an open generation go on, and stops a late attempt on a settled one', async () => {
    const userId = await t.newUser(1);
    const generationId = await t.newGeneration(userId, 1, 1);
    await expect(assertGenerationOpen(t.deps, generationId)).resolves.toBeUndefined();
    await failOpenSlots(t.deps, userId, generationId, 'failed');
    await finishIfDone(t.deps, userId, generationId, 'failed');
    const error = await assertGenerationOpen(t.deps, generationId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenerationSettledError);
    expect((error as Error).message).toBe(`Generation ${generationId} is already settled`);
  });
});

describe('slotSeed', () => {
  it('gives a slot the same seed on every retry, another slot another one, within the engine’s range', () => {
    expect(slotSeed('g-1', 0)).toBe(slotSeed('g-1', 0));
    expect(slotSeed('g-1', 0)).not.toBe(slotSeed('g-1', 1));
    expect(slotSeed('g-1', 0)).not.toBe(slotSeed('g-2', 0));
    for (let index = 0; index < 50; index += 1) {
      const seed = slotSeed('5f0c6c1e-2b7a-4d1e-9a49-0f7b5b0e2d11', index);
      expect(Number.isInteger(seed) && seed >= 0 && seed < 2_147_483_647).toBe(true);
    }
  });
});
