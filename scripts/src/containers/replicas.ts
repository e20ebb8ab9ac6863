import { setTimeout as sleep } from 'node:timers/promises';
import { killContainer, logsOf, type ComposeStack } from './compose.js';
import { creditsLeft, finished, startGeneration, type LiveSeller } from './seller-walk.js';

const MARBLE_SHOT = { backgroundType: 'marble', count: 1 };

/** Jobs each worker container logged as completed, by container. */
export async function completedJobsByReplica(stack: ComposeStack): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const container of await stack.containers('worker')) {
    const lines = (await logsOf(container)).split('\n').filter((line) => line.includes('"msg":"job completed"'));
    counts.set(container.slice(0, 12), lines.length);
  }
  return counts;
}

/**
 * `jobs` one-shot generations started at once, all waited for over the socket: answers jobs per
 * second from the first request to the last 'generation:done'.
 */
export async function burst(baseUrl: string, seller: LiveSeller, imageId: string, jobs: number): Promise<number> {
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: jobs }, () =>
      startGeneration(baseUrl, seller, '/images/generate-product-shots', { imageId, ...MARBLE_SHOT }),
    ),
  );
  const runs = await Promise.all(ids.map((id) => finished(baseUrl, seller, id, 600_000)));
  const failed = runs.filter((run) => run.status !== 'complete');
  if (failed.length > 0) throw new Error(`${failed.length} of ${jobs} burst generations failed: ${failed[0]!.error}`);
  return jobs / ((performance.now() - started) / 1000);
}

export interface KilledWorker {
  container: string;
  generationId: string;
  creditsBefore: number;
  creditsAfter: number;
  shotsMade: number;
}

/**
 * Starts a four-shot generation, waits until a worker logs that it took the job, `docker kill`s that
 * worker (SIGKILL: no shutdown, the job's lock simply stops being renewed) and waits for the
 * generation over the socket: another replica must pick the job up once its lock expires and
 * finish it, and the credits spent must equal the shots made.
 */
export async function killWorkerMidJob(
  baseUrl: string,
  stack: ComposeStack,
  seller: LiveSeller,
  imageId: string,
): Promise<KilledWorker> {
  const creditsBefore = await creditsLeft(baseUrl, seller);
  const generationId = await startGeneration(baseUrl, seller, '/images/generate-product-shots', {
    imageId,
    backgroundType: 'marble',
    count: 4,
  });
  const holder = await workerHolding(stack, generationId, 60_000);
  await killContainer(holder);
  const holderLog = await logsOf(holder);
  if (holderLog.split('\n').some((line) => line.includes('"msg":"job completed"') && line.includes(generationId))) {
    throw new Error(
      `worker ${holder.slice(0, 12)} finished generation ${generationId} before it was killed: not a mid-job kill`,
    );
  }
  const run = await finished(baseUrl, seller, generationId, 300_000);
  if (run.status !== 'complete')
    throw new Error(`generation ${generationId} ended ${run.status} after its worker was killed: ${run.error}`);
  const shotsMade = run.styles.filter((style) => style.status === 'complete').length;
  const creditsAfter = await creditsLeft(baseUrl, seller);
  if (creditsBefore - creditsAfter !== shotsMade) {
    throw new Error(`credits not conserved: ${creditsBefore} before, ${creditsAfter} after, ${shotsMade} shots made`);
  }
  return { container: holder.slice(0, 12), generationId, creditsBefore, creditsAfter, shotsMade };
}

async function workerHolding(stack: ComposeStack, generationId: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const container of await stack.containers('worker')) {
      const lines = (await logsOf(container)).split('\n');
      if (lines.some((line) => line.includes('"msg":"job started"') && line.includes(generationId))) return container;
    }
    if (Date.now() > deadline)
      throw new Error(`no worker took generation ${generationId} within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}
