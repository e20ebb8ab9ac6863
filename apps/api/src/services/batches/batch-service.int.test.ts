import { describe, expect, it } from 'vitest';
import { jobIds } from '@prodshot/queue';
import { keyClaim, refusal, useTestServices } from '../service-deps.test-support.js';

const t = useTestServices();

async function batchesOf(userId: string): Promise<number> {
  const rows = await t.deps.db.selectFrom('batches').select('id').where('user_id', '=', userId).execute();
  return rows.length;
}

describe('BatchService: a batch opened and paid for as one, without HTTP', () => {
  it('opens one generation per photo, reserves the whole cost and enqueues each photo as a single call would', async () => {
    const userId = await t.newUser(5);
    const photos = [await t.newUpload(userId), await t.newUpload(userId)];
    const body = {
      items: photos.map(({ imageId }, n) => ({ imageId, productTitle: `Serum ${n + 1}` })),
      choice: { mode: 'template', backgroundType: 'marble', count: 2 } as const,
    };
    const { batchId, credits } = await t.services.batches.create(userId, body, undefined);
    expect(credits).toBe(4);
    expect(await t.balance(userId)).toBe(1);
    const batch = await t.services.batches.owned(userId, batchId);
    expect(batch.generations).toHaveLength(2);
    for (const [n, generation] of batch.generations.entries()) {
      const job = await t.queued('product-shot', jobIds.generation(generation.id));
      expect(job?.data).toMatchObject({ imageId: photos[n]!.imageId, count: 2, productTitle: `Serum ${n + 1}` });
    }
  });

  it('refuses a batch the credits do not cover with 402 naming its whole cost, and opens nothing', async () => {
    const userId = await t.newUser(3);
    const photos = [await t.newUpload(userId), await t.newUpload(userId)];
    const body = {
      items: photos.map(({ imageId }) => ({ imageId })),
      choice: { mode: 'smart', styleCount: 2 } as const,
    };
    const error = await refusal(t.services.batches.create(userId, body, undefined));
    expect(error).toMatchObject({ statusCode: 402, details: { needed: 4, available: 3 } });
    expect(await batchesOf(userId)).toBe(0);
    expect(await t.balance(userId)).toBe(3);
  });

  it("starts once per Idempotency-Key, and refuses a batch naming another seller's photo (404) before charging", async () => {
    const userId = await t.newUser(4);
    const { imageId } = await t.newUpload(userId);
    const body = { items: [{ imageId }], choice: { mode: 'prompt', prompt: 'on a beach', count: 1 } as const };
    const key = keyClaim(userId, body);
    const first = await t.services.batches.create(userId, body, key);
    expect(await t.services.batches.create(userId, body, key)).toEqual(first);
    expect(await t.balance(userId)).toBe(3);
    const stranger = await t.newUser(4);
    expect(await refusal(t.services.batches.create(stranger, body, undefined))).toMatchObject({ statusCode: 404 });
    expect(await t.balance(stranger)).toBe(4);
  });

  it('refuses a signed archive link that is forged (403) or names no batch (404)', async () => {
    const error = await refusal(
      t.services.batches.linked('00000000-0000-4000-8000-000000000000', '9999999999', 'forged'),
    );
    expect(error).toMatchObject({ statusCode: 403, code: 'invalid_signature' });
  });
});
