import type { Job } from 'bullmq';
import { jobIds } from '@prodshot/queue';
import type { WorkerDeps } from '../deps.js';
import { failSlot, finishIfDone, refundAllHeld } from '../pipeline/slot-lifecycle.js';
import type { JobHandler } from './index.js';

export const INTERRUPTED_MESSAGE = 'This generation was interrupted. Your credits were refunded.';
const ALIVE = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Resolves work whose jobs are gone (Redis lost them, or a job failed where no worker saw it),
 * slot by slot: a stale open slot with no live job fails and its credit comes back, wherever its
 * generation stands (a slot opened on a settled generation included). A generation lost before it
 * had slots gives back what it still holds. Anything with a live job is left to that job. Expired
 * Idempotency-Keys go too.
 */
export const sweepStaleGenerations: JobHandler<'sweep-stale-generations'> = {
  async run(job, deps) {
    const resolved = new Set<string>();
    for (const slot of await deps.repos.generations.staleOpenSlots(job.data.staleAfterMs)) {
      if (
        await anyAlive(deps, [
          jobIds.generation(slot.generationId),
          jobIds.style(slot.generationId, slot.index, slot.attempt),
        ])
      )
        continue;
      await failSlot(deps, slot, INTERRUPTED_MESSAGE);
      await finishIfDone(deps, slot.userId, slot.generationId, INTERRUPTED_MESSAGE);
      resolved.add(slot.generationId);
    }
    for (const generation of await deps.repos.generations.staleWithoutOpenSlots(job.data.staleAfterMs)) {
      if (await anyAlive(deps, [jobIds.generation(generation.id)])) continue;
      // Credits reserved before any slot existed (a smart generation that never fanned out).
      await refundAllHeld(deps, generation.user_id, generation.id, 'sweep');
      await finishIfDone(deps, generation.user_id, generation.id, INTERRUPTED_MESSAGE);
      resolved.add(generation.id);
    }
    await deps.repos.idempotencyKeys.deleteExpired();
    return { resolved: [...resolved] };
  },
};

async function anyAlive(deps: WorkerDeps, ids: string[]): Promise<boolean> {
  const lookups: Promise<Job | undefined>[] = ids.flatMap((id) => [
    deps.producer.queue('render').getJob(id),
    deps.producer.queue('interactive').getJob(id),
  ]);
  for (const job of await Promise.all(lookups)) {
    if (job && ALIVE.has(await job.getState())) return true;
  }
  return false;
}
