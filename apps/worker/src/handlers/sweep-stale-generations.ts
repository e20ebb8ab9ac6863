import type { Job } from 'bullmq';
import { jobIds } from '@prodshot/queue';
import type { GenerationWithStyles } from '@prodshot/db';
import type { WorkerDeps } from '../deps.js';
import { failOpenSlots, finishIfDone, refund } from '../pipeline/slots.js';
import type { JobHandler } from './index.js';

export const INTERRUPTED_MESSAGE = 'This generation was interrupted. Your credits were refunded.';
const ALIVE = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Resolves generations whose jobs are gone (Redis lost them, or a job failed where no worker saw
 * it): open slots fail, every reserved credit still held comes back, the owner is told. A
 * generation with any job still alive is left to that job.
 */
export const sweepStaleGenerations: JobHandler<'sweep-stale-generations'> = {
  async run(job, deps) {
    const resolved: string[] = [];
    for (const generation of await deps.generations.staleUnfinished(job.data.staleAfterMs)) {
      if (await hasLiveJob(deps, generation)) continue;
      await failOpenSlots(deps, generation.user_id, generation.id, INTERRUPTED_MESSAGE);
      // Credits reserved before any slot existed (a smart generation that never fanned out).
      await refund(deps, generation.user_id, generation.id, 1_000, `refund:${generation.id}:sweep`);
      await finishIfDone(deps, generation.user_id, generation.id, INTERRUPTED_MESSAGE);
      resolved.push(generation.id);
    }
    return { resolved };
  },
};

async function hasLiveJob(deps: WorkerDeps, generation: GenerationWithStyles): Promise<boolean> {
  const candidates: Promise<Job | undefined>[] = [
    deps.producer.queue('render').getJob(jobIds.generation(generation.id)),
    deps.producer.queue('interactive').getJob(jobIds.generation(generation.id)),
    ...generation.styles.map((style) => deps.producer.queue('render').getJob(jobIds.style(generation.id, style.index))),
  ];
  for (const job of await Promise.all(candidates)) {
    if (job && ALIVE.has(await job.getState())) return true;
  }
  return false;
}
