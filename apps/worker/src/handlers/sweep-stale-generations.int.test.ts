import type { Job } from 'bullmq';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CreditsRepository, GenerationsRepository } from '@prodshot/db';
import { jobIds } from '@prodshot/queue';
import { buildWorkerDeps, finishedShot, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { INTERRUPTED_MESSAGE, sweepStaleGenerations } from './sweep-stale-generations.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

const STALE_AFTER_MS = 60_000;

/** As if nothing had touched the generation and its slots for ten minutes. */
async function age(generationId: string): Promise<void> {
  await t.deps.db
    .updateTable('generations')
    .set({ updated_at: sql`now() - interval '10 minutes'` })
    .where('id', '=', generationId)
    .execute();
  await t.deps.db
    .updateTable('generation_styles')
    .set({ updated_at: sql`now() - interval '10 minutes'` })
    .where('generation_id', '=', generationId)
    .execute();
}

function sweep() {
  return sweepStaleGenerations.run({ data: { staleAfterMs: STALE_AFTER_MS } } as Job<{ staleAfterMs: number }>, t.deps);
}

describe('the sweeper, slot by slot', () => {
  it('leaves a stale slot alone while its job is alive, and resolves it once the job is gone', async () => {
    const userId = await t.newUser(2);
    const generationId = await t.newGeneration(userId, 2, 2);
    await age(generationId);
    // Waiting in the queue (no worker here takes it): alive.
    await t.deps.producer.enqueue('product-shot', { generationId, userId } as never, {
      jobId: jobIds.generation(generationId),
    });
    expect((await sweep()).resolved).not.toContain(generationId);
    expect((await t.deps.generations.styles(generationId)).map((s) => s.status)).toEqual(['queued', 'queued']);
    expect(await t.balance(userId)).toBe(0);

    await t.deps.producer.queue('render').remove(jobIds.generation(generationId));
    expect((await sweep()).resolved).toContain(generationId);
    const generation = await t.deps.generations.find(generationId);
    expect(generation).toMatchObject({ status: 'failed', error: INTERRUPTED_MESSAGE });
    expect(await t.balance(userId)).toBe(2);
  });

  it('refunds a lost slot a seller opened on a generation that had already completed', async () => {
    const { userId, generationId } = await finishedShot(t, 2);
    expect((await t.deps.generations.find(generationId))!.status).toBe('complete');
    // generate-single-product-shot: a new paid slot on the settled generation, in one transaction.
    await t.deps.db.transaction().execute(async (tx) => {
      await new GenerationsRepository(tx).reopenWithSlot(generationId, {
        index: 1,
        name: 'Beach',
        prompt: 'a beach',
        backgroundType: 'Beach',
      });
      await new CreditsRepository(tx).reserve({
        userId,
        generationId,
        amount: 1,
        idempotencyKey: `reserve:${generationId}:1`,
      });
    });
    expect((await t.deps.generations.find(generationId))!.status).toBe('running');
    expect(await t.balance(userId)).toBe(0);

    await age(generationId);
    expect((await sweep()).resolved).toContain(generationId);
    const generation = await t.deps.generations.find(generationId);
    expect(generation!.styles.map((s) => s.status)).toEqual(['complete', 'failed']);
    expect(generation!.status).toBe('complete');
    expect(await t.balance(userId)).toBe(1);
  });

  it('swept again, moves nothing more', async () => {
    const userId = await t.newUser(2);
    const generationId = await t.newGeneration(userId, 2, 2);
    await age(generationId);
    expect((await sweep()).resolved).toContain(generationId);
    const ledger = await t.ledger(generationId);
    expect(ledger.filter((move) => move.kind === 'refund')).toHaveLength(2);
    const doneEvents = () =>
      t.events.filter((e) => e.event === 'generation:done' && e.payload.generationId === generationId).length;
    expect(doneEvents()).toBe(1);

    await age(generationId);
    expect((await sweep()).resolved).not.toContain(generationId);
    expect(await t.ledger(generationId)).toEqual(ledger);
    expect(await t.balance(userId)).toBe(2);
    expect(doneEvents()).toBe(1);
  });

  it('gives back what a generation lost before it had slots still holds', async () => {
    const userId = await t.newUser(4);
    const generationId = await t.newGeneration(userId, 0, 4);
    await age(generationId);
    expect((await sweep()).resolved).toContain(generationId);
    expect((await t.deps.generations.find(generationId))!.status).toBe('failed');
    expect(await t.balance(userId)).toBe(4);
  });
});
