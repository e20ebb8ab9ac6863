import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PaidPlanId, PurgeExpiredHistoryJob } from '@prodshot/contracts';
import { ImagesRepository, SubscriptionsRepository } from '@prodshot/db';
import { derivedPrefix, renditionKey, uploadCutoutKey, uploadKey } from '@prodshot/storage';
import { renderSlot } from '../pipeline/slot-lifecycle.js';
import { buildWorkerDeps, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { purgeExpiredHistory } from './purge-expired-history.js';

const stack = inject('stack');
let t: TestWorkerDeps;
let shot: Buffer;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
  shot = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());

function purge(data: PurgeExpiredHistoryJob = { batchSize: 100, maxBatches: 20 }) {
  return purgeExpiredHistory.run({ data } as Job<PurgeExpiredHistoryJob>, t.deps);
}

async function seller(plan: PaidPlanId | 'none'): Promise<string> {
  const userId = await t.newUser(10);
  if (plan !== 'none')
    await new SubscriptionsRepository(t.deps.db).activate(userId, { plan, status: 'active', provider: 'local' });
  return userId;
}

/** A finished generation whose one output is stored with its renditions, paid for in the ledger. */
async function finishedGeneration(userId: string, imageId: string | null = null): Promise<string> {
  const generationId = await t.newGeneration(userId, 1, 1);
  if (imageId)
    await t.deps.db.updateTable('generations').set({ image_id: imageId }).where('id', '=', generationId).execute();
  await renderSlot(t.deps, { userId, generationId, index: 0 }, async () => ({ image: shot, mimeType: 'image/png' }));
  expect(await t.deps.generations.settleIfDone(generationId)).toBe('complete');
  return generationId;
}

/** An upload with its original, renditions and cutout stored; its row id and storage key. */
async function storedUpload(userId: string): Promise<{ id: string; key: string }> {
  const fileId = randomUUID();
  const key = uploadKey(userId, fileId, 'image/png');
  await t.deps.store.put(key, shot, 'image/png');
  await t.deps.store.put(renditionKey(key, 'thumbnail'), shot, 'image/webp');
  await t.deps.store.put(uploadCutoutKey(key), shot, 'image/png');
  const row = await new ImagesRepository(t.deps.db).create({
    user_id: userId,
    file_id: fileId,
    name: 'photo',
    storage_key: key,
    content_type: 'image/png',
    width: 64,
    height: 48,
    bytes: shot.length,
  });
  return { id: row.id, key };
}

async function age(table: 'images' | 'generations', id: string, days: number): Promise<void> {
  await t.deps.db
    .updateTable(table)
    .set({ created_at: sql`now() - make_interval(days => ${days})` })
    .where('id', '=', id)
    .execute();
}

async function exists(key: string): Promise<boolean> {
  return (await t.deps.store.stat(key)) !== null;
}

async function generationExists(id: string): Promise<boolean> {
  return (await t.deps.generations.find(id)) !== undefined;
}

async function imageExists(id: string): Promise<boolean> {
  return (await t.deps.db.selectFrom('images').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

describe('the history purge', () => {
  it("deletes a Starter seller's generation and upload past 30 days, files first, then rows; the credit ledger stays whole", async () => {
    const userId = await seller('starter');
    const upload = await storedUpload(userId);
    const generationId = await finishedGeneration(userId, upload.id);
    const [style] = await t.deps.generations.styles(generationId);
    const output = style!.result_key!;
    const downloadCopy = style!.download_key!;
    const ledgerBefore = await t.deps.db
      .selectFrom('credit_ledger')
      .select(['id', 'kind', 'idempotency_key', 'subscription_delta', 'addon_delta'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    const balanceBefore = await t.balance(userId);
    expect(ledgerBefore.map((row) => row.kind)).toEqual(['grant_addon', 'reserve', 'settle']);
    expect(await exists(output)).toBe(true);
    expect(await exists(renditionKey(output, 'preview'))).toBe(true);
    expect(await exists(downloadCopy)).toBe(true);

    await age('generations', generationId, 31);
    await age('images', upload.id, 31);
    const result = await purge();
    expect(result.generations).toBeGreaterThanOrEqual(1);
    expect(result.images).toBeGreaterThanOrEqual(1);

    expect(await generationExists(generationId)).toBe(false);
    expect(await imageExists(upload.id)).toBe(false);
    for (const key of [
      output,
      renditionKey(output, 'thumbnail'),
      renditionKey(output, 'preview'),
      downloadCopy,
      upload.key,
      renditionKey(upload.key, 'thumbnail'),
      uploadCutoutKey(upload.key),
    ]) {
      expect(await exists(key), key).toBe(false);
    }
    // Money records stay as they were; only their link to the deleted generation is let go.
    const ledgerAfter = await t.deps.db
      .selectFrom('credit_ledger')
      .select(['id', 'kind', 'idempotency_key', 'subscription_delta', 'addon_delta', 'generation_id'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    expect(ledgerAfter.map(({ generation_id: _generationId, ...row }) => row)).toEqual(ledgerBefore);
    expect(ledgerAfter.every((row) => row.generation_id === null)).toBe(true);
    expect(ledgerAfter.find((row) => row.kind === 'reserve')!.idempotency_key).toContain(generationId);
    expect(await t.balance(userId)).toBe(balanceBefore);
  });

  it('keeps what is younger than 30 days, everything of Growth and Pro sellers, and treats no plan as Starter', async () => {
    const starter = await seller('starter');
    const young = await finishedGeneration(starter);
    await age('generations', young, 29);
    const keepers: string[] = [];
    for (const plan of ['growth', 'pro'] as const) {
      const userId = await seller(plan);
      const generationId = await finishedGeneration(userId);
      await age('generations', generationId, 1000);
      keepers.push(generationId);
    }
    const none = await seller('none');
    const expired = await finishedGeneration(none);
    await age('generations', expired, 31);

    await purge();
    expect(await generationExists(young)).toBe(true);
    for (const id of keepers) expect(await generationExists(id)).toBe(true);
    expect(await generationExists(expired)).toBe(false);
    const keptOutput = (await t.deps.generations.styles(keepers[0]!))[0]!.result_key!;
    expect(await exists(keptOutput)).toBe(true);
  });

  it('never deletes a generation still running, its files, or the upload it reads', async () => {
    const userId = await seller('starter');
    const upload = await storedUpload(userId);
    const generationId = await finishedGeneration(userId, upload.id);
    // A seller opened another paid slot on it: running again, with an open slot.
    await t.deps.generations.reopenWithSlot(generationId, {
      index: 1,
      name: 'Beach',
      prompt: 'a beach',
      backgroundType: 'Beach',
    });
    await age('generations', generationId, 90);
    await age('images', upload.id, 90);
    const output = (await t.deps.generations.styles(generationId))[0]!.result_key!;

    await purge();
    expect(await generationExists(generationId)).toBe(true);
    expect(await exists(output)).toBe(true);
    expect(await imageExists(upload.id)).toBe(true);
    expect(await exists(upload.key)).toBe(true);

    // Settled at last: the next run takes both.
    await t.deps.generations.failStyle(generationId, 1, 'gone');
    await t.deps.generations.settleIfDone(generationId);
    await purge();
    expect(await generationExists(generationId)).toBe(false);
    expect(await imageExists(upload.id)).toBe(false);
    expect(await exists(output)).toBe(false);
  });

  it("deletes a seller's batch (which holds their prompt) once its generations are gone, not while one is still running", async () => {
    const userId = await seller('starter');
    const batch = await t.deps.repos.batches.create({
      userId,
      choice: { mode: 'prompt', prompt: 'On my kitchen table', count: 1 },
      credits: 2,
    });
    const [done, running] = [await finishedGeneration(userId), await t.newGeneration(userId, 1, 1, { kind: 'manual' })];
    for (const [position, id] of [done, running].entries()) {
      await t.deps.db
        .updateTable('generations')
        .set({ batch_id: batch.id, batch_position: position })
        .where('id', '=', id)
        .execute();
      await age('generations', id, 31);
    }
    await t.deps.db
      .updateTable('batches')
      .set({ created_at: sql`now() - make_interval(days => 31)` })
      .where('id', '=', batch.id)
      .execute();
    const batchExists = async () =>
      (await t.deps.db.selectFrom('batches').select('id').where('id', '=', batch.id).executeTakeFirst()) !== undefined;

    await purge();
    expect(await generationExists(done)).toBe(false);
    expect(await batchExists()).toBe(true);

    await t.deps.generations.failStyle(running, 0, 'gone');
    await t.deps.generations.settleIfDone(running);
    expect(await purge()).toMatchObject({ generations: 1, batches: 1 });
    expect(await generationExists(running)).toBe(false);
    expect(await batchExists()).toBe(false);
  });

  it('works in bounded batches, goes on where the last run stopped, and is a no-op once done', async () => {
    const userId = await seller('none');
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      const { id } = await storedUpload(userId);
      await age('images', id, 40 + n);
      ids.push(id);
    }
    const first = await purge({ batchSize: 2, maxBatches: 1 });
    expect(first.images).toBe(2);
    // Oldest first.
    expect(await imageExists(ids[4]!)).toBe(false);
    expect(await imageExists(ids[3]!)).toBe(false);
    expect(await imageExists(ids[2]!)).toBe(true);

    await purge({ batchSize: 2, maxBatches: 5 });
    for (const id of ids) expect(await imageExists(id)).toBe(false);
    expect(await purge()).toEqual({ generations: 0, images: 0, batches: 0 });
  });

  it('finishes a run cut short between the files and the rows: files already gone are no error', async () => {
    const userId = await seller('starter');
    const upload = await storedUpload(userId);
    await age('images', upload.id, 45);
    // As if a previous run deleted the files and died before the rows.
    await t.deps.store.delete(upload.key);
    await t.deps.store.deletePrefix(derivedPrefix(upload.key));
    await purge();
    expect(await imageExists(upload.id)).toBe(false);
  });
});
