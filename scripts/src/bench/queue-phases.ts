import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import type { BenchStack, ServiceProcess } from './bench-stack.js';
import { generationIdOf, isDone, post, STYLE_PROMPT, until, type Seller } from './seller.js';

async function clearQueues(stack: BenchStack): Promise<void> {
  for (const name of ['render', 'interactive']) {
    const queue = new Queue(name, { connection: { url: stack.env.REDIS_URL }, prefix: 'prodshot' });
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

/** One studio shot submitted with respond-async: its accept time and generation id. */
async function enqueueOne(stack: BenchStack, seller: Seller): Promise<{ ms: number; generationId: string }> {
  const result = await post(stack.baseUrl, seller, '/api/images/generate-product-shots', { imageId: seller.imageId, backgroundType: 'studio' });
  if (result.status !== 202) throw new Error(`enqueue answered ${result.status}: ${JSON.stringify(result.json)}`);
  return { ms: result.ms, generationId: generationIdOf(result) };
}

/**
 * (5) Enqueue latency under load: every seller submits on their own clock, at random moments
 * (Poisson arrivals) averaging one generation a second each (far above a person's pace), for
 * `seconds`, whatever the answers to earlier ones. The accept time of `generate-product-shots`
 * with respond-async, while `drainingWorkers` worker processes render what was accepted.
 */
export async function enqueueLatency(stack: BenchStack, sellers: Seller[], seconds: number, drainingWorkers: number): Promise<number[]> {
  await readyWorkers(stack, drainingWorkers, 1, sellers);
  const until = performance.now() + seconds * 1000;
  const latencies = await Promise.all(
    sellers.map(async (seller) => {
      const sent: Promise<number>[] = [];
      for (;;) {
        await sleep(-Math.log(1 - Math.random()) * 1000);
        if (performance.now() > until) return Promise.all(sent);
        sent.push(enqueueOne(stack, seller).then((r) => r.ms));
      }
    }),
  );
  await stack.startWorkers(0, 1);
  await clearQueues(stack);
  return latencies.flat();
}

/** Capacity: `clients` submitting back to back with no pause, so accepts queue up; accepts per second and their latencies. */
export async function enqueueCapacity(stack: BenchStack, sellers: Seller[], perSeller: number): Promise<{ perSecond: number; latencies: number[] }> {
  const started = performance.now();
  const latencies = await Promise.all(
    sellers.map(async (seller) => {
      const own: number[] = [];
      for (let i = 0; i < perSeller; i += 1) own.push((await enqueueOne(stack, seller)).ms);
      return own;
    }),
  );
  const perSecond = (sellers.length * perSeller) / ((performance.now() - started) / 1000);
  await clearQueues(stack);
  return { perSecond, latencies: latencies.flat() };
}

/** Jobs run through freshly started workers and the accept path before anything is timed: first jobs pay for connections, JIT and engine warm-up once. */
const WARM_UP_JOBS = 8;

/** Starts worker processes (of `cpusEach` cores each, or the whole machine), waits for them to take jobs, and runs warm-up jobs of these sellers (round robin) through them. */
export async function readyWorkers(stack: BenchStack, count: number, concurrency: number, sellers: Seller[], cpusEach?: number): Promise<ServiceProcess[]> {
  const workers = await stack.startWorkers(count, concurrency, cpusEach);
  await sleep(4_000);
  const owners = Array.from({ length: WARM_UP_JOBS }, (_, n) => sellers[n % sellers.length]!);
  const submitted = await Promise.all(owners.map(async (seller) => ({ seller, ...(await enqueueOne(stack, seller)) })));
  await until(async () => submitted.every(({ seller, generationId }) => isDone(seller, generationId)), 120_000, 'the warm-up jobs');
  return workers;
}

/** (6) Throughput: jobs per second drained by N worker processes of concurrency 1, each of `cpusEach` cores or of the whole machine. */
export async function throughput(stack: BenchStack, seller: Seller, workers: number, jobs: number, cpusEach?: number): Promise<number> {
  await readyWorkers(stack, workers, 1, [seller], cpusEach);
  const started = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < jobs; i += 1) {
    ids.push(generationIdOf(await post(stack.baseUrl, seller, '/api/images/generate-product-shots', { imageId: seller.imageId, prompt: STYLE_PROMPT })));
  }
  await until(async () => ids.every((id) => isDone(seller, id)), 300_000, `${jobs} jobs on ${workers} workers`);
  return jobs / ((performance.now() - started) / 1000);
}
