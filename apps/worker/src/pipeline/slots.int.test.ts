import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildWorkerDeps, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { failOpenSlots, failSlot, refund, renderSlot } from './slots.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

const png = { image: Buffer.from('not really a png, never decoded here'), mimeType: 'image/png' as const };

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
    expect(t.events.filter((e) => e.payload.generationId === generationId && e.payload.status === 'complete')).toEqual([]);
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
    await refund(t.deps, userId, generationId, 1_000, `refund:${generationId}:sweep`);
    expect(await t.balance(userId)).toBe(3);
    expect(t.deps.metrics.refunded - before).toBe(3);
    const rows = await t.deps.db.selectFrom('credit_ledger').select('addon_delta').where('generation_id', '=', generationId).where('kind', '=', 'refund').execute();
    expect(rows.map((r) => r.addon_delta).sort()).toEqual([1, 1, 1]);
  });

  it('keeps the credit of an output that was stored, whatever is refunded after it', async () => {
    const userId = await t.newUser(2);
    const generationId = await t.newGeneration(userId, 2, 2);
    await renderSlot(t.deps, { userId, generationId, index: 0 }, async () => png);
    await refund(t.deps, userId, generationId, 1_000, `refund:${generationId}:sweep`);
    await failOpenSlots(t.deps, userId, generationId, 'failed');
    expect(await slotStatuses(generationId)).toEqual(['complete', 'failed']);
    expect(await t.balance(userId)).toBe(1);
    expect(t.events.filter((e) => e.payload.generationId === generationId && e.payload.status === 'complete')).toHaveLength(1);
  });
});
