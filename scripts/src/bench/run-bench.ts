import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { Queue } from 'bullmq';
import { createImageModel, normaliseInput } from '@prodshot/imaging';
import { runMain, startBenchStack, repoRoot, type BenchStack, type ServiceProcess } from './bench-stack.js';
import sharp from 'sharp';
import { priorityPhase } from './priority.js';
import { generationIdOf, newSeller, post, uploadPhoto, type Seller } from './seller.js';
import { median, percentile, round } from './stats.js';
import { writeReport, type BenchResults } from './report.js';
import { UPLOAD_BURST, uploadBurst } from './upload-burst.js';

const PRODUCT = path.resolve(repoRoot, '..', 'shared', 'corpus', 'products', 'saleor-blue-plimsolls-1.png');
const STYLE_PROMPT = 'Polished marble countertop, soft window light';
/** A real photograph (bench/real-photos, with its source and licence) to stand the product on. */
const TABLE = path.join(repoRoot, 'bench', 'real-photos', 'wood-painted-planks.jpg');
const UNCUT_RUNS = 3;
/**
 * Each enqueue phase lasts this long: 600 to 1,500 accepts, so that the p99 is a stable figure and
 * not the luck of one moment (a stall delays the few requests in flight together, and at 500
 * samples those few alone are the 1% tail).
 */
const ENQUEUE_WINDOW_S = 30;

function log(message: string): void {
  console.log(`[bench] ${message}`);
}

async function until<T>(check: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** (1) The engine alone, in this process: the time a style costs before any queue, storage or socket. */
async function engineOnly(cutout: Buffer): Promise<number> {
  const engine = createImageModel({ kind: 'local' });
  const samples: number[] = [];
  for (let i = 0; i < 12; i += 1) {
    const started = performance.now();
    await engine.generate({ cutout, prompt: STYLE_PROMPT, size: 1024, seed: 1000 + i, format: 'png' });
    if (i >= 2) samples.push(performance.now() - started);
  }
  return median(samples);
}

/**
 * The engine alone on N threads at once, shots per second: with nothing else running, this is
 * the most N worker processes could drain on this machine, the ceiling of figure (6).
 */
async function engineThroughput(cutout: Buffer, threads: number, shotsPerThread: number): Promise<number> {
  const workers = Array.from(
    { length: threads },
    (_, n) => new Worker(new URL('./engine-loop.js', import.meta.url), { workerData: { cutout, prompt: STYLE_PROMPT, shots: shotsPerThread, seed: 5000 + n * 100 } }),
  );
  const next = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
  await Promise.all(workers.map(next));
  const started = performance.now();
  const finished = workers.map(next);
  for (const worker of workers) worker.postMessage('go');
  await Promise.all(finished);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(workers.map((w) => w.terminate()));
  return (threads * shotsPerThread) / seconds;
}

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
async function enqueueLatency(stack: BenchStack, sellers: Seller[], seconds: number, drainingWorkers: number): Promise<number[]> {
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
async function enqueueCapacity(stack: BenchStack, sellers: Seller[], perSeller: number): Promise<{ perSecond: number; latencies: number[] }> {
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

/** The owner's socket event announcing the generation done, once it came: no database polling loads the machine under test. */
function doneEvent(seller: Seller, generationId: string) {
  return seller.events.find((e) => e.event === 'generation:done' && e.payload.generationId === generationId);
}

function isDone(seller: Seller, generationId: string): boolean {
  return doneEvent(seller, generationId) !== undefined;
}

/** Jobs run through freshly started workers and the accept path before anything is timed: first jobs pay for connections, JIT and engine warm-up once. */
const WARM_UP_JOBS = 8;

/** Starts worker processes (of `cpusEach` cores each, or the whole machine), waits for them to take jobs, and runs warm-up jobs of these sellers (round robin) through them. */
async function readyWorkers(stack: BenchStack, count: number, concurrency: number, sellers: Seller[], cpusEach?: number): Promise<ServiceProcess[]> {
  const workers = await stack.startWorkers(count, concurrency, cpusEach);
  await sleep(4_000);
  const owners = Array.from({ length: WARM_UP_JOBS }, (_, n) => sellers[n % sellers.length]!);
  const submitted = await Promise.all(owners.map(async (seller) => ({ seller, ...(await enqueueOne(stack, seller)) })));
  await until(async () => submitted.every(({ seller, generationId }) => isDone(seller, generationId)), 120_000, 'the warm-up jobs');
  return workers;
}

/** (6) Throughput: jobs per second drained by N worker processes of concurrency 1, each of `cpusEach` cores or of the whole machine. */
async function throughput(stack: BenchStack, seller: Seller, workers: number, jobs: number, cpusEach?: number): Promise<number> {
  await readyWorkers(stack, workers, 1, [seller], cpusEach);
  const started = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < jobs; i += 1) {
    ids.push(generationIdOf(await post(stack.baseUrl, seller, '/api/images/generate-product-shots', { imageId: seller.imageId, prompt: STYLE_PROMPT })));
  }
  await until(async () => ids.every((id) => isDone(seller, id)), 300_000, `${jobs} jobs on ${workers} workers`);
  return jobs / ((performance.now() - started) / 1000);
}

interface StyleSample {
  /** Request sent → `complete` event received, on the bench's clock. */
  endToEndMs: number;
  /** The engine's own render inside the worker: the style's progress 30 → 90 events, stamped around `generate()`. */
  engineMs: number;
}

/** (3) End-to-end time of one style job (API accept → queue → worker → storage → DB → socket), one at a time. */
async function styleEndToEnd(stack: BenchStack, seller: Seller, generations: number): Promise<StyleSample[]> {
  const samples: StyleSample[] = [];
  for (let g = 0; g < generations; g += 1) {
    const recommended = await post(stack.baseUrl, seller, '/api/images/generate-product-style-recommendations', { imageId: seller.imageId }, false);
    const generationId = generationIdOf(recommended);
    for (let index = 0; index < 4; index += 1) {
      const started = Date.now();
      const result = await post(stack.baseUrl, seller, '/api/images/generate-single-product-shot', {
        imageId: seller.imageId,
        generationId,
        stylePrompt: STYLE_PROMPT,
        styleName: 'Marble',
        styleIndex: index,
      });
      if (result.status !== 202) throw new Error(`single shot answered ${result.status}`);
      const ofStyle = (status: string, progress?: number) =>
        seller.events.find(
          (e) =>
            e.event === 'generation:style' &&
            e.payload.generationId === generationId &&
            e.payload.index === index &&
            e.payload.status === status &&
            (progress === undefined || e.payload.progress === progress),
        );
      const done = await until(async () => ofStyle('complete'), 60_000, 'a style to complete');
      const [rendering, rendered] = [ofStyle('progress', 30), ofStyle('progress', 90)];
      if (!rendering || !rendered) throw new Error('a style completed without its progress events');
      samples.push({ endToEndMs: done.receivedAt - started, engineMs: rendered.payload.at - rendering.payload.at });
    }
  }
  return samples;
}

/** (2) Smart generation of 4 styles for many sellers at once: time until each seller's generation:done arrives. */
async function smartForSellers(stack: BenchStack, sellers: Seller[]): Promise<number[]> {
  return Promise.all(
    sellers.map(async (seller) => {
      const started = Date.now();
      const result = await post(stack.baseUrl, seller, '/api/images/smart-generate-product-shots', { imageId: seller.imageId, styleCount: 4 });
      const generationId = generationIdOf(result);
      const done = await until(
        async () => doneEvent(seller, generationId),
        600_000,
        'a smart generation',
      );
      return done.receivedAt - started;
    }),
  );
}

/**
 * The product standing on a wooden table, as a phone would send it: the ML cutout has work to do.
 * Each run's photo is another (the product a little further along), so no run reuses the mask an
 * earlier one left in the worker's cache.
 */
async function uncutPhoto(run: number): Promise<Buffer> {
  const product = await sharp(PRODUCT).resize(560).toBuffer();
  return sharp(TABLE).resize(1024, 768, { fit: 'cover' }).composite([{ input: product, left: 200 + 30 * run, top: 150 }]).jpeg({ quality: 80 }).toBuffer();
}

/**
 * (3) What one seller waits for, as the web app does it, from an uncut photo: upload, the upload's
 * analysis and cutout (the subject event), then 4 styles until generation:done.
 */
async function smartFromUncutPhoto(stack: BenchStack, seller: Seller): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < UNCUT_RUNS; run += 1) {
    const photo = await uncutPhoto(run);
    const started = Date.now();
    const imageId = await uploadPhoto(stack.baseUrl, seller.token, photo, `table-${run}.jpg`);
    await until(async () => seller.events.find((e) => e.event === 'image:subject' && e.payload.imageId === imageId), 120_000, 'the upload analysis');
    const generationId = generationIdOf(await post(stack.baseUrl, seller, '/api/images/smart-generate-product-shots', { imageId, styleCount: 4 }));
    await until(async () => doneEvent(seller, generationId), 120_000, 'a smart generation from an uncut photo');
    times.push(Date.now() - started);
  }
  return times;
}

async function main(): Promise<void> {
  if (!existsSync(PRODUCT)) throw new Error(`The bench needs ${PRODUCT} (../shared/corpus beside the repository).`);
  const cutout = await createImageModel({ kind: 'local' }).removeBackground((await normaliseInput(await readFile(PRODUCT))).buffer);
  log('engine only…');
  const engineMsMedian = await engineOnly(cutout);
  const engineShotsPerSecondByThreads: Record<string, number> = {};
  for (const threads of [1, 2]) engineShotsPerSecondByThreads[String(threads)] = round(await engineThroughput(cutout, threads, 8), 2);
  log(`engine median ${round(engineMsMedian)} ms; ${JSON.stringify(engineShotsPerSecondByThreads)} shots/s on 1 and 2 threads`);

  const stack = await startBenchStack();
  try {
    const sellers = await Promise.all(Array.from({ length: 50 }, (_, n) => newSeller(stack.baseUrl, stack.db, n, PRODUCT)));
    log('enqueue latency for 20 and 50 sellers while 2 workers render…');
    const enqueue20 = await enqueueLatency(stack, sellers.slice(0, 20), ENQUEUE_WINDOW_S, 2);
    const enqueue50 = await enqueueLatency(stack, sellers, ENQUEUE_WINDOW_S, 2);
    log('enqueue capacity, 50 clients back to back…');
    const capacity = await enqueueCapacity(stack, sellers, 6);

    log('style end to end and push latency (1 worker, concurrency 2)…');
    await readyWorkers(stack, 1, 2, sellers);
    const styleSamples = await styleEndToEnd(stack, sellers[0]!, 3);

    const throughputByWorkers: Record<string, number> = {};
    for (const workers of [1, 2, 4]) {
      log(`throughput with ${workers} worker process(es) of 1 CPU…`);
      throughputByWorkers[String(workers)] = round(await throughput(stack, sellers[1]!, workers, 24, 1), 2);
    }
    const throughputWholeMachineByWorkers: Record<string, number> = {};
    for (const workers of [1, 2]) {
      log(`throughput with ${workers} worker process(es) each free to use every core…`);
      throughputWholeMachineByWorkers[String(workers)] = round(await throughput(stack, sellers[1]!, workers, 24), 2);
    }

    log('smart generation for 1, 10 and 50 sellers (2 workers of concurrency 2)…');
    const smartWorkers = await readyWorkers(stack, 2, 2, sellers);
    const e2eSmartMsBySellers: Record<string, number> = {};
    for (const count of [1, 10, 50]) {
      e2eSmartMsBySellers[String(count)] = Math.round(median(await smartForSellers(stack, sellers.slice(0, count))));
    }
    log('smart generation from an uncut photo on a table, one seller (upload, cutout, 4 styles)…');
    const smartUncutMs = await smartFromUncutPhoto(stack, sellers[0]!);
    const workerRssMb = Math.max(...smartWorkers.map((w) => w.peakRssMb()));
    const apiRssMb = stack.api.peakRssMb();

    log('priority processing: Pro shots behind a backlog of Starter and Growth shots, 1 worker…');
    const priority = await priorityPhase(stack, { starter: sellers[2]!, growth: sellers[3]!, pro: sellers[4]! });

    log(`upload burst: ${UPLOAD_BURST} uploads of a 40 Mpx PNG at once, workers stopped…`);
    await stack.startWorkers(0, 1);
    const uploadBurstResults = await uploadBurst(stack, sellers[0]!.token);

    const pushLatencies = sellers.flatMap((s) =>
      s.events.filter((e) => e.event === 'generation:style' && e.payload.status === 'complete').map((e) => e.receivedAt - e.payload.at),
    );
    const engineInWorkerMsMedian = median(styleSamples.map((s) => s.engineMs));
    const overheadMsMedian = median(styleSamples.map((s) => s.endToEndMs - s.engineMs));
    const results: BenchResults = {
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGb: round(os.totalmem() / 1024 ** 3), node: process.version },
      engineMsMedian: round(engineMsMedian),
      engineInWorkerMsMedian: round(engineInWorkerMsMedian),
      engineShotsPerSecondByThreads,
      styleEndToEndMsMedian: round(median(styleSamples.map((s) => s.endToEndMs))),
      overheadMsMedian: round(overheadMsMedian),
      overheadRatio: round(overheadMsMedian / engineInWorkerMsMedian, 3),
      pushP50Ms: round(percentile(pushLatencies, 50)),
      pushP99Ms: round(percentile(pushLatencies, 99)),
      pushSamples: pushLatencies.length,
      enqueueP50Ms: round(percentile(enqueue20, 50)),
      enqueueP99Ms: round(percentile(enqueue20, 99)),
      enqueueSamples: enqueue20.length,
      enqueueWindowSeconds: ENQUEUE_WINDOW_S,
      enqueueAt50SellersP50Ms: round(percentile(enqueue50, 50)),
      enqueueAt50SellersP99Ms: round(percentile(enqueue50, 99)),
      enqueueAt50SellersSamples: enqueue50.length,
      enqueueCapacityPerSecond: round(capacity.perSecond),
      enqueueAtCapacityP50Ms: round(percentile(capacity.latencies, 50)),
      enqueueAtCapacityP99Ms: round(percentile(capacity.latencies, 99)),
      throughputByWorkers,
      throughputWholeMachineByWorkers,
      e2eSmartMsBySellers,
      smartFromUncutPhotoMsMedian: Math.round(median(smartUncutMs)),
      smartFromUncutPhotoMsRuns: smartUncutMs,
      apiRssMb: round(apiRssMb),
      workerRssMb: round(workerRssMb),
      uploadBurst: uploadBurstResults,
      priority,
    };
    for (const seller of sellers) seller.socket.disconnect();
    await writeReport(results);
  } finally {
    await stack.stop();
  }
}

runMain(main);

