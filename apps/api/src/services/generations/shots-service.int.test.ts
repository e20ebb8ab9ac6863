import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jobIds } from '@prodshot/queue';
import { keyClaim, refusal, useTestServices } from '../service-deps.test-support.js';

const t = useTestServices();

async function generationsOf(userId: string): Promise<number> {
  const rows = await t.deps.db.selectFrom('generations').select('id').where('user_id', '=', userId).execute();
  return rows.length;
}

describe('ShotsService: the paid starts, without HTTP', () => {
  it('opens a manual shot with a slot per output, reserves a credit each, enqueues its job and announces the balance', async () => {
    const userId = await t.newUser(3);
    const { imageId, sourceKey } = await t.newUpload(userId);
    const started = await t.services.shots.startManual(userId, {
      imageId,
      backgroundType: 'marble',
      count: 2,
      productTitle: '  Rose serum ',
    });
    expect(started.jobId).toBe(jobIds.generation(started.generationId));
    expect(await t.balance(userId)).toBe(1);
    expect(await t.ledger(started.generationId)).toEqual([{ kind: 'reserve', credits: -2 }]);
    expect(t.creditsChanged.filter((change) => change.userId === userId).at(-1)?.balance).toMatchObject({
      addOnCredits: 1,
    });
    const job = await t.queued('product-shot', started.jobId);
    expect(job?.data).toMatchObject({
      generationId: started.generationId,
      userId,
      imageId,
      sourceKey,
      backgroundType: 'marble',
      count: 2,
      productTitle: 'Rose serum',
    });
    const generation = await t.deps.repos.generations.findOwned(userId, started.generationId);
    expect(generation?.styles.map((style) => style.status)).toEqual(['queued', 'queued']);
  });

  it('refuses a shot that names neither a template nor a prompt, and auto mode with a prompt, before anything is looked up', async () => {
    const userId = await t.newUser(3);
    const imageId = randomUUID();
    expect(await refusal(t.services.shots.startManual(userId, { imageId }))).toMatchObject({
      statusCode: 400,
      code: 'missing_background',
    });
    const auto = t.services.shots.startManual(userId, { imageId, backgroundType: 'auto', prompt: 'a beach' });
    expect(await refusal(auto)).toMatchObject({ statusCode: 400, code: 'auto_with_prompt' });
    expect(await refusal(t.services.shots.startEnhance(userId, { prompt: '   ' }))).toMatchObject({
      statusCode: 400,
      code: 'empty_prompt',
    });
    expect(await generationsOf(userId)).toBe(0);
  });

  it('answers 402 with the shortfall and leaves no generation, reservation or job when the credits do not cover the call', async () => {
    const userId = await t.newUser(1);
    const { imageId } = await t.newUpload(userId);
    const error = await refusal(t.services.shots.startManual(userId, { imageId, backgroundType: 'marble', count: 3 }));
    expect(error).toMatchObject({ statusCode: 402, code: 'insufficient_credits' });
    expect(error.details).toMatchObject({ needed: 3, available: 1, shortfall: 2 });
    expect(await generationsOf(userId)).toBe(0);
    expect(await t.balance(userId)).toBe(1);
  });

  it("answers 404 for another seller's upload and charges nothing", async () => {
    const owner = await t.newUser(3);
    const other = await t.newUser(3);
    const { imageId } = await t.newUpload(owner);
    const error = await refusal(t.services.shots.startSmart(other, { imageId, styleCount: 2 }));
    expect(error.statusCode).toBe(404);
    expect(await t.balance(other)).toBe(3);
    expect(await generationsOf(other)).toBe(0);
  });

  it('starts once per Idempotency-Key: a repeat answers the first generation and charges nothing more; another request under the key is 422', async () => {
    const userId = await t.newUser(5);
    const { imageId } = await t.newUpload(userId);
    const body = { imageId, styleCount: 2 };
    const key = keyClaim(userId, body);
    const first = await t.services.shots.startSmart(userId, body, key);
    const again = await t.services.shots.startSmart(userId, body, key);
    expect(again).toEqual(first);
    expect(await t.balance(userId)).toBe(3);
    const reused = { ...key, requestHash: keyClaim(userId, { imageId, styleCount: 3 }).requestHash };
    const error = await refusal(t.services.shots.startSmart(userId, { imageId, styleCount: 3 }, reused));
    expect(error).toMatchObject({ statusCode: 422, code: 'idempotency_key_reused' });
    expect(await generationsOf(userId)).toBe(1);
  });

  it('holds no credit on an unsure outline the seller has not confirmed (409), and goes ahead once they tap their product', async () => {
    const userId = await t.newUser(2);
    const { imageId } = await t.newUpload(userId);
    await t.deps.repos.images.setOutline(imageId, {
      key: `outlines/${imageId}.png`,
      unsure: true,
      reasons: [],
      confirmed: false,
      focus: null,
    });
    const error = await refusal(t.services.shots.startRemoveBackground(userId, imageId, undefined));
    expect(error).toMatchObject({ statusCode: 409, code: 'outline_unconfirmed', details: { imageId } });
    expect(await t.balance(userId)).toBe(2);
    const started = await t.services.shots.startRemoveBackground(userId, imageId, { x: 0.5, y: 0.5 });
    const job = await t.queued('remove-background', started.jobId);
    expect(job?.data.focus).toEqual([{ x: 0.5, y: 0.5, keep: true }]);
    expect(await t.balance(userId)).toBe(1);
  });

  it('opens a client-driven style as a new slot for a credit, asks nothing for it again, and refuses a failed one with where to retry it', async () => {
    const userId = await t.newUser(4);
    const { imageId } = await t.newUpload(userId);
    const { generationId } = await t.services.shots.startStyle(userId, { imageId });
    expect(await t.balance(userId)).toBe(4);
    const style = { generationId, imageId, styleIndex: 0, styleName: 'Marble', stylePrompt: 'on white marble' };
    const first = await t.services.shots.startSingle(userId, style);
    expect(first.jobId).toBe(jobIds.style(generationId, 0));
    expect(await t.queued('style-shot', first.jobId)).toMatchObject({ data: { styleName: 'Marble', styleIndex: 0 } });
    await t.services.shots.startSingle(userId, style);
    expect(await t.balance(userId)).toBe(3);
    await t.deps.repos.generations.failStyle(generationId, 0, 'the model refused');
    const error = await refusal(t.services.shots.startSingle(userId, style));
    expect(error).toMatchObject({ statusCode: 409, code: 'style_failed' });
    expect(error.message).toContain(`/api/generations/${generationId}/styles/0/retry`);
  });

  it('refuses prompt enhancement outside the plans that include it (403 naming where to upgrade) and enqueues nothing', async () => {
    const userId = await t.newUser(10);
    const error = await refusal(t.services.shots.startEnhance(userId, { prompt: 'a bottle on a beach' }));
    expect(error).toMatchObject({ statusCode: 403, code: 'plan_required', details: { feature: 'promptEnhancement' } });
  });
});
