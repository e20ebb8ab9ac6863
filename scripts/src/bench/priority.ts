import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import type { PaidPlanId } from '@prodshot/contracts';
import type { BenchStack } from './bench-stack.js';
import { generationIdOf, post, putOnPlan, type Seller } from './seller.js';
import { percentile, round } from './stats.js';

/** Starter and Growth shots queued ahead of the Pro ones: more than one worker drains in a minute. */
export const PRIORITY_BACKLOG = 20;
export const PRIORITY_PRO_JOBS = 5;
const WARM_UP_JOBS = 3;

export interface PriorityResults {
  backlog: number;
  proJobs: number;
  proWaitP50Ms: number;
  proWaitP99Ms: number;
  othersWaitP50Ms: number;
  othersWaitP99Ms: number;
  /** Others' median wait over Pro's. */
  waitRatio: number;
}

async function shot(stack: BenchStack, seller: Seller): Promise<string> {
  const result = await post(stack.baseUrl, seller, '/api/images/generate-product-shots', { imageId: seller.imageId, backgroundType: 'studio' });
  if (result.status !== 202) throw new Error(`enqueue answered ${result.status}: ${JSON.stringify(result.json)}`);
  return generationIdOf(result);
}

async function allDone(sellerOf: Map<string, Seller>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const done = (id: string) => sellerOf.get(id)!.events.some((e) => e.event === 'generation:done' && e.payload.generationId === id);
  while (![...sellerOf.keys()].every(done)) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the priority phase to drain');
    await sleep(100);
  }
}

/** How long each job waited in the queue: from its enqueue to a worker taking it, as BullMQ stamped them. */
async function waits(stack: BenchStack, ids: string[]): Promise<number[]> {
  const queue = new Queue('render', { connection: { url: stack.env.REDIS_URL }, prefix: 'prodshot' });
  try {
    return await Promise.all(
      ids.map(async (id) => {
        const job = await queue.getJob(id);
        if (!job?.processedOn) throw new Error(`job ${id} has no start time`);
        return job.processedOn - job.timestamp;
      }),
    );
  } finally {
    await queue.close();
  }
}

/**
 * Priority processing: one worker of concurrency 1 with a backlog of Starter and Growth shots, then
 * Pro shots enqueued behind them. Pro's plan runs its jobs at a higher BullMQ priority, so they wait
 * for the shot in hand only; the others wait for the backlog.
 */
export async function priorityPhase(stack: BenchStack, sellers: Record<PaidPlanId, Seller>): Promise<PriorityResults> {
  for (const [plan, seller] of Object.entries(sellers)) await putOnPlan(stack.db, seller, plan as PaidPlanId);
  await stack.startWorkers(1, 1);
  const warmUp = new Map<string, Seller>();
  for (let i = 0; i < WARM_UP_JOBS; i += 1) warmUp.set(await shot(stack, sellers.starter), sellers.starter);
  await allDone(warmUp, 180_000);

  const sellerOf = new Map<string, Seller>();
  const others: string[] = [];
  for (let i = 0; i < PRIORITY_BACKLOG; i += 1) {
    const seller = i % 2 === 0 ? sellers.starter : sellers.growth;
    const id = await shot(stack, seller);
    others.push(id);
    sellerOf.set(id, seller);
  }
  const pro: string[] = [];
  for (let i = 0; i < PRIORITY_PRO_JOBS; i += 1) {
    const id = await shot(stack, sellers.pro);
    pro.push(id);
    sellerOf.set(id, sellers.pro);
  }
  await allDone(sellerOf, 900_000);
  const [proWaits, otherWaits] = await Promise.all([waits(stack, pro), waits(stack, others)]);
  await stack.startWorkers(0, 1);
  const proP50 = percentile(proWaits, 50);
  const othersP50 = percentile(otherWaits, 50);
  return {
    backlog: PRIORITY_BACKLOG,
    proJobs: PRIORITY_PRO_JOBS,
    proWaitP50Ms: Math.round(proP50),
    proWaitP99Ms: Math.round(percentile(proWaits, 99)),
    othersWaitP50Ms: Math.round(othersP50),
    othersWaitP99Ms: Math.round(percentile(otherWaits, 99)),
    waitRatio: round(othersP50 / Math.max(proP50, 1), 1),
  };
}
