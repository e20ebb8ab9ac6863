import { describe, expect, it } from 'vitest';
import { jobIds } from '@prodshot/queue';
import { keyClaim, refusal, useTestServices } from '../service-deps.test-support.js';

const t = useTestServices();

describe('IterateService: another take and a retried style, without HTTP', () => {
  it('makes another take of a finished smart style as a plain shot of the same scene with a new seed, for a credit', async () => {
    const userId = await t.newUser(2);
    const { imageId } = await t.newUpload(userId);
    const origin = await t.newGeneration(userId, imageId, 'smart', ['complete']);
    const made = await t.services.iterate.moreLikeThis(userId, { generationId: origin, index: 0 });
    expect(made.from).toEqual({ generationId: origin, index: 0 });
    expect(made.seed).not.toBe(7);
    const generation = await t.deps.repos.generations.findOwned(userId, made.generationId);
    expect(generation).toMatchObject({ kind: 'manual' });
    expect(await t.balance(userId)).toBe(1);
    const job = await t.queued('product-shot', jobIds.generation(made.generationId));
    expect(job?.data).toMatchObject({ imageId, backgroundType: 'marble', seed: made.seed, count: 1 });
  });

  it('answers a repeated key with the first take, read back from its row, and charges once', async () => {
    const userId = await t.newUser(3);
    const { imageId } = await t.newUpload(userId);
    const origin = await t.newGeneration(userId, imageId, 'manual', ['complete']);
    const key = keyClaim(userId, { origin });
    const first = await t.services.iterate.moreLikeThis(userId, { generationId: origin, index: 0 }, key);
    const again = await t.services.iterate.moreLikeThis(userId, { generationId: origin, index: 0 }, key);
    expect(again).toEqual(first);
    expect(await t.balance(userId)).toBe(2);
  });

  it("refuses an output that is not finished (409), one the generation does not have and another seller's (404)", async () => {
    const userId = await t.newUser(2);
    const { imageId } = await t.newUpload(userId);
    const origin = await t.newGeneration(userId, imageId, 'manual', ['queued']);
    const unfinished = await refusal(t.services.iterate.moreLikeThis(userId, { generationId: origin, index: 0 }));
    expect(unfinished).toMatchObject({ statusCode: 409, code: 'output_not_ready' });
    const missing = await refusal(t.services.iterate.moreLikeThis(userId, { generationId: origin, index: 4 }));
    expect(missing).toMatchObject({ statusCode: 404, code: 'output_not_found' });
    const stranger = await t.newUser(2);
    const theirs = await refusal(t.services.iterate.moreLikeThis(stranger, { generationId: origin, index: 0 }));
    expect(theirs).toMatchObject({ statusCode: 404, code: 'generation_not_found' });
    expect(await t.balance(userId)).toBe(2);
  });

  it('refuses a take of a shot whose photo was deleted (409) and charges nothing', async () => {
    const userId = await t.newUser(2);
    const { imageId } = await t.newUpload(userId);
    const origin = await t.newGeneration(userId, imageId, 'manual', ['complete']);
    await t.deps.repos.images.deleteOwned(userId, imageId);
    const error = await refusal(t.services.iterate.moreLikeThis(userId, { generationId: origin, index: 0 }));
    expect(error).toMatchObject({ statusCode: 409, code: 'source_deleted' });
    expect(await t.balance(userId)).toBe(2);
  });

  it('queues a failed smart style as its next attempt for a credit, and refuses it again while that attempt runs', async () => {
    const userId = await t.newUser(2);
    const { imageId } = await t.newUpload(userId);
    const origin = await t.newGeneration(userId, imageId, 'smart', ['complete', 'failed']);
    const before = await t.deps.repos.generations.slotAttempt(origin, 1);
    const retried = await t.services.iterate.retryStyle(userId, { generationId: origin, index: 1 });
    expect(retried).toMatchObject({ generationId: origin, index: 1, attempt: before + 1 });
    expect(retried.jobId).toBe(jobIds.style(origin, 1, before + 1));
    expect(await t.queued('style-shot', retried.jobId)).toMatchObject({
      data: { styleIndex: 1, styleName: 'Style 1' },
    });
    expect(await t.balance(userId)).toBe(1);
    const again = await refusal(t.services.iterate.retryStyle(userId, { generationId: origin, index: 1 }));
    expect(again).toMatchObject({ statusCode: 409, code: 'style_not_failed' });
    const done = await refusal(t.services.iterate.retryStyle(userId, { generationId: origin, index: 0 }));
    expect(done.message).toContain('is done');
    expect(await t.balance(userId)).toBe(1);
  });

  it("retries only a smart run's styles (409 otherwise)", async () => {
    const userId = await t.newUser(2);
    const { imageId } = await t.newUpload(userId);
    const origin = await t.newGeneration(userId, imageId, 'manual', ['failed']);
    const error = await refusal(t.services.iterate.retryStyle(userId, { generationId: origin, index: 0 }));
    expect(error).toMatchObject({ statusCode: 409, code: 'not_retryable' });
  });
});
