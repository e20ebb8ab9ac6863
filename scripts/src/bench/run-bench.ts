import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { corpusFile } from '@prodshot/fixtures';
import { createImageModel, normaliseInput } from '@prodshot/imaging';
import { runMain, startBenchStack } from './bench-stack.js';
import { engineOnly, engineThroughput } from './engine-alone.js';
import { smartForSellers, smartFromUncutPhoto, styleEndToEnd } from './generation-phases.js';
import { priorityPhase } from './priority.js';
import { enqueueCapacity, enqueueLatency, readyWorkers, throughput } from './queue-phases.js';
import { newSeller } from './seller.js';
import { median, percentile, round } from './stats.js';
import { writeReport, type BenchResults } from './report.js';
import { LARGE_UPLOAD_BURST, UPLOAD_BURST, uploadBursts } from './upload-burst.js';

const PRODUCT = corpusFile('products', 'saleor-blue-plimsolls-1.png');
/**
 * Each enqueue phase lasts this long: 600 to 1,500 accepts, so that the p99 is a stable figure and
 * not the luck of one moment (a stall delays the few requests in flight together, and at 500
 * samples those few alone are the 1% tail).
 */
const ENQUEUE_WINDOW_S = 30;

function log(message: string): void {
  console.log(`[bench] ${message}`);
}

async function main(): Promise<void> {
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
    const smartUncutMs = await smartFromUncutPhoto(stack, sellers[0]!, PRODUCT);
    const workerRssMb = Math.max(...smartWorkers.map((w) => w.peakRssMb()));
    const apiRssMb = stack.api.peakRssMb();

    log('priority processing: Pro shots behind a backlog of Starter and Growth shots, 1 worker…');
    const priority = await priorityPhase(stack, { starter: sellers[2]!, growth: sellers[3]!, pro: sellers[4]! });

    log(`upload bursts: ${UPLOAD_BURST} uploads of a 40 Mpx PNG at once, then ${LARGE_UPLOAD_BURST} of a 10 MB file, workers stopped…`);
    await stack.startWorkers(0, 1);
    const uploadBurstResults = await uploadBursts(stack, sellers[0]!.token);

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
