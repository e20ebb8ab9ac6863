import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { JobPayloads } from '@prodshot/contracts';
import { buildWorkerDeps, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { failOpenSlots, finishIfDone, GenerationSettledError, refundUnused } from '../pipeline/slots.js';
import { styleRecommendation } from './style-recommendation.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

describe('a late attempt of a smart generation', () => {
  it('does no work, opens no slot and charges nothing once its generation was settled and refunded', async () => {
    const userId = await t.newUser(4);
    const generationId = await t.newGeneration(userId, 0, 4);
    // What the final failure did: everything refunded, the generation failed.
    await failOpenSlots(t.deps, userId, generationId, 'failed');
    await refundUnused(t.deps, userId, generationId, 4, 'recommendation');
    await finishIfDone(t.deps, userId, generationId, 'failed');
    expect(await t.balance(userId)).toBe(4);

    const payload = { generationId, userId, imageId: 'none', sourceKey: 'none', mode: 'fan-out', styleCount: 4, size: 1024 } as JobPayloads['style-recommendation'];
    await expect(styleRecommendation.run({ data: payload } as Job<JobPayloads['style-recommendation']>, t.deps)).rejects.toBeInstanceOf(GenerationSettledError);
    expect(await t.deps.generations.styles(generationId)).toEqual([]);
    expect(await t.deps.producer.queue('render').getJobCounts('waiting', 'delayed')).toEqual({ waiting: 0, delayed: 0 });
    expect(await t.balance(userId)).toBe(4);
  });
});
