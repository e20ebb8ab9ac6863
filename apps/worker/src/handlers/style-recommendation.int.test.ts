import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UNSUPPORTED_PRODUCT_MESSAGE, type JobPayloads } from '@prodshot/contracts';
import { settleKind } from '@prodshot/imaging';
import { jobIds } from '@prodshot/queue';
import {
  buildWorkerDeps,
  dispatch,
  jobOf,
  sourceOf,
  styleRecommendationPayload,
  type TestWorkerDeps,
} from '../worker-deps.test-support.js';
import { styleRecommendation } from './style-recommendation.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

/** A seller's smart generation before its styles are known: no slot yet, `reserved` credits held. */
async function smartGeneration(
  reserved: number,
  mode: Parameters<typeof styleRecommendationPayload>[1],
  title = 'Rose serum',
) {
  const userId = await t.newUser(reserved);
  const upload = await t.newUpload(userId);
  const generationId = await t.newGeneration(userId, 0, reserved, { kind: 'smart', imageId: upload.imageId });
  const payload = styleRecommendationPayload({ ...sourceOf(userId, generationId, upload), productTitle: title }, mode);
  return { userId, generationId, payload };
}

function run(payload: JobPayloads['style-recommendation']) {
  return styleRecommendation.run(jobOf('style-recommendation', payload), t.deps);
}

async function styleJobs(generationId: string, count: number) {
  const queue = t.deps.producer.queue('render');
  return Promise.all(Array.from({ length: count }, (_, index) => queue.getJob(jobIds.style(generationId, index))));
}

describe('style-recommendation, run by the server', () => {
  it('opens one slot and one style-shot job per style, and gives back the credits of styles it did not find', async () => {
    // More styles paid for than the local engine ever recommends (3 to 6).
    const { userId, generationId, payload } = await smartGeneration(8, { mode: 'fan-out', styleCount: 8 });

    const result = await run(payload);

    const found = result.styles.length;
    expect(found).toBeGreaterThanOrEqual(3);
    expect(found).toBeLessThan(8);
    const generation = await t.deps.generations.find(generationId);
    expect(generation).toMatchObject({ status: 'running', stage: 'generating', product_info: result.productInfo });
    expect(generation!.styles.map((slot) => [slot.index, slot.name, slot.prompt, slot.status])).toEqual(
      result.styles.map((style, index) => [index, style.name, style.prompt, 'queued']),
    );
    const jobs = await styleJobs(generationId, found);
    expect(jobs.map((job) => [job?.name, job?.data.styleIndex, job?.data.stylePrompt])).toEqual(
      result.styles.map((style, index) => ['style-shot', index, style.prompt]),
    );
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -8 },
      { kind: 'refund', credits: 8 - found },
    ]);
    expect(await t.balance(userId)).toBe(8 - found);
    const mine = t.events.filter((e) => e.payload.generationId === generationId);
    expect(mine.filter((e) => e.event === 'generation:stage').map((e) => e.payload.stage)).toEqual([
      'analysing',
      'designing recommendations',
      'generating',
    ]);
    expect(mine.filter((e) => e.event === 'generation:style').map((e) => e.payload.status)).toEqual(
      result.styles.map(() => 'queued'),
    );
  });

  it('run again after a crash, adds no slot, no job and no refund', async () => {
    const { userId, generationId, payload } = await smartGeneration(8, { mode: 'fan-out', styleCount: 8 });
    const first = await run(payload);
    const ledger = await t.ledger(generationId);

    const second = await run(payload);

    expect(second.styles).toEqual(first.styles);
    expect(await t.deps.generations.styles(generationId)).toHaveLength(first.styles.length);
    const queued = await t.deps.producer.queue('render').getJobs(['waiting', 'prioritized', 'delayed']);
    expect(queued.filter((job) => job.data.generationId === generationId)).toHaveLength(first.styles.length);
    expect(await t.ledger(generationId)).toEqual(ledger);
    expect(await t.balance(userId)).toBe(8 - first.styles.length);
  });

  it('shoots a photo read as no kind whatever its title says: a title alone refuses nothing', async () => {
    const { generationId, payload } = await smartGeneration(
      4,
      { mode: 'fan-out', styleCount: 4 },
      'Enamel camping mug',
    );

    const result = await run(payload);

    expect(result.unsupportedProduct).toBeNull();
    expect(result.styles.length).toBeGreaterThanOrEqual(3);
    expect(await t.deps.generations.find(generationId)).toMatchObject({ status: 'running', stage: 'generating' });
  });

  it('refunds everything and fails the generation with the unsupported-product message when the photo reads as an unsupported kind', async () => {
    const { userId, generationId, payload } = await smartGeneration(
      4,
      { mode: 'fan-out', styleCount: 4 },
      'Enamel camping mug',
    );
    // A hosted engine's vision model, reading the photo as a mug.
    const seenAsMug = t.withEngine({
      analyse: async (image, hints) => ({
        ...(await t.deps.engine.analyse(image, hints)),
        ...settleKind({ kind: 'kitchenware', confidence: 0.9 }, hints),
      }),
    });

    const result = await styleRecommendation.run(jobOf('style-recommendation', payload), seenAsMug);

    expect(result).toMatchObject({ styles: [], unsupportedProduct: { message: UNSUPPORTED_PRODUCT_MESSAGE } });
    expect(await t.deps.generations.find(generationId)).toMatchObject({
      status: 'failed',
      error: UNSUPPORTED_PRODUCT_MESSAGE,
      styles: [],
    });
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -4 },
      { kind: 'refund', credits: 4 },
    ]);
    expect(await t.balance(userId)).toBe(4);
  });

  it('refunds what it held once when it fails for good, however often the failure is settled', async () => {
    const { userId, generationId, payload } = await smartGeneration(4, { mode: 'fan-out', styleCount: 4 });
    const failing = t.withEngine({ analyse: () => Promise.reject(new Error('the engine broke')) });
    const refundedBefore = t.deps.metrics.refunded;

    await expect(dispatch(failing, 'style-recommendation', payload)).rejects.toThrow('the engine broke');
    await styleRecommendation.onFinalFailure!(payload, 'again', t.deps);

    expect(await t.deps.generations.find(generationId)).toMatchObject({ status: 'failed', styles: [] });
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -4 },
      { kind: 'refund', credits: 4 },
    ]);
    expect(await t.balance(userId)).toBe(4);
    expect(t.deps.metrics.refunded - refundedBefore).toBe(4);
  });
});

describe('style-recommendation, run for the client', () => {
  it('answers the styles without opening a slot, queueing a job or moving a credit', async () => {
    const { userId, generationId, payload } = await smartGeneration(0, { mode: 'client' });

    const result = await run(payload);

    expect(result.styles.length).toBeGreaterThanOrEqual(3);
    expect(await t.deps.generations.find(generationId)).toMatchObject({
      status: 'complete',
      styles: [],
      product_info: result.productInfo,
    });
    expect(await styleJobs(generationId, 1)).toEqual([undefined]);
    expect(await t.ledger(generationId)).toEqual([]);
    expect(await t.balance(userId)).toBe(0);
  });
});

describe('a late attempt of a smart generation', () => {
  it('does no work, opens no slot and charges nothing once its generation was settled and refunded', async () => {
    const { userId, generationId, payload } = await smartGeneration(4, { mode: 'fan-out', styleCount: 4 });
    // What the final failure did: everything refunded, the generation failed.
    await styleRecommendation.onFinalFailure!(payload, 'failed', t.deps);
    expect(await t.balance(userId)).toBe(4);
    let analysed = 0;
    const counting = t.withEngine({
      analyse: (...args) => {
        analysed += 1;
        return t.deps.engine.analyse(...args);
      },
    });

    await expect(dispatch(counting, 'style-recommendation', payload)).rejects.toThrow(/already settled/);
    expect(analysed).toBe(0);
    expect(await t.deps.generations.styles(generationId)).toEqual([]);
    expect(await styleJobs(generationId, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(await t.ledger(generationId)).toEqual([
      { kind: 'reserve', credits: -4 },
      { kind: 'refund', credits: 4 },
    ]);
  });
});
