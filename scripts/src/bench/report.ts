import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './bench-stack.js';
import type { PriorityResults } from './priority.js';
import type { UploadBurstResults, UploadBursts } from './upload-burst.js';

export interface BenchResults {
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string };
  engineMsMedian: number;
  engineInWorkerMsMedian: number;
  engineShotsPerSecondByThreads: Record<string, number>;
  styleEndToEndMsMedian: number;
  overheadMsMedian: number;
  overheadRatio: number;
  pushP50Ms: number;
  pushP99Ms: number;
  pushSamples: number;
  enqueueP50Ms: number;
  enqueueP99Ms: number;
  enqueueSamples: number;
  enqueueWindowSeconds: number;
  enqueueAt50SellersP50Ms: number;
  enqueueAt50SellersP99Ms: number;
  enqueueAt50SellersSamples: number;
  enqueueCapacityPerSecond: number;
  enqueueAtCapacityP50Ms: number;
  enqueueAtCapacityP99Ms: number;
  /** Worker processes of 1 CPU each (WORKER_CPUS=1 and a CPU affinity), as replicas with a CPU limit of 1 run. */
  throughputByWorkers: Record<string, number>;
  /** Worker processes each free to use every core of the machine. */
  throughputWholeMachineByWorkers: Record<string, number>;
  e2eSmartMsBySellers: Record<string, number>;
  /** One seller, an uncut photo on a table: upload → analysis and ML cutout → 4 styles done. */
  smartFromUncutPhotoMsMedian: number;
  smartFromUncutPhotoMsRuns: number[];
  /** Peak API RSS over the load phases above (sellers, enqueue, throughput, smart generations). */
  apiRssMb: number;
  workerRssMb: number;
  uploadBurst: UploadBursts;
  priority: PriorityResults;
}

interface Row {
  figure: string;
  value: string;
  target: string;
}

function rows(r: BenchResults): Row[] {
  const t = r.throughputByWorkers;
  const w = r.throughputWholeMachineByWorkers;
  const e = r.engineShotsPerSecondByThreads;
  return [
    { figure: 'engine only, one 1024 px style (median)', value: `${r.engineMsMedian} ms in the bench process, ${r.engineInWorkerMsMedian} ms in the worker`, target: '' },
    { figure: 'engine only, shots/s on 1 / 2 threads (ceiling for 2 workers)', value: `${e['1']} / ${e['2']} (${ratio(e['2'], e['1'])}×)`, target: '' },
    { figure: 'one style end to end, idle system (median)', value: `${r.styleEndToEndMsMedian} ms`, target: '' },
    { figure: 'queue + storage + DB + socket overhead (median)', value: `${r.overheadMsMedian} ms = ${round(r.overheadRatio * 100)}% of engine`, target: '≤ 10%' },
    { figure: 'socket push latency p50 / p99', value: `${r.pushP50Ms} / ${r.pushP99Ms} ms (${r.pushSamples} events)`, target: 'p99 ≤ 50 ms' },
    { figure: 'enqueue latency p50 / p99, 20 sellers', value: `${r.enqueueP50Ms} / ${r.enqueueP99Ms} ms (${r.enqueueSamples} requests)`, target: 'p99 ≤ 40 ms' },
    {
      figure: 'enqueue latency p50 / p99, 50 sellers',
      value: `${r.enqueueAt50SellersP50Ms} / ${r.enqueueAt50SellersP99Ms} ms (${r.enqueueAt50SellersSamples} requests)`,
      target: 'p99 ≤ 40 ms',
    },
    {
      figure: 'enqueue capacity, 50 clients back to back',
      value: `${r.enqueueCapacityPerSecond} accepts/s, p50 / p99 ${r.enqueueAtCapacityP50Ms} / ${r.enqueueAtCapacityP99Ms} ms`,
      target: '',
    },
    {
      figure: 'throughput, 1 / 2 / 4 worker processes of 1 CPU',
      value: `${t['1']} / ${t['2']} / ${t['4']} jobs/s (2 workers = ${ratio(t['2'], t['1'])}×)`,
      target: '2 workers ≥ 1.6×',
    },
    { figure: 'throughput, 1 / 2 workers free to use every core', value: `${w['1']} / ${w['2']} jobs/s (2 workers = ${ratio(w['2'], w['1'])}×)`, target: '' },
    {
      figure: 'smart generation of 4 styles, 1 / 10 / 50 sellers (median)',
      value: `${r.e2eSmartMsBySellers['1']} / ${r.e2eSmartMsBySellers['10']} / ${r.e2eSmartMsBySellers['50']} ms`,
      target: '',
    },
    {
      figure: 'smart generation of 4 styles from an uncut photo, one seller (upload to done, median)',
      value: `${r.smartFromUncutPhotoMsMedian} ms (runs ${r.smartFromUncutPhotoMsRuns.join(', ')})`,
      target: '≤ 3000 ms',
    },
    { figure: 'peak RSS api / worker (concurrency 2, cutout model loaded)', value: `${r.apiRssMb} / ${r.workerRssMb} MB`, target: 'api ≤ 250 MB, worker ≤ 900 MB' },
    ...priorityRows(r.priority),
    ...burstRows(r.uploadBurst),
  ];
}

const PRIORITY_FIGURE = 'priority processing:';

function priorityRows(p: PriorityResults): Row[] {
  return [
    {
      figure: `${PRIORITY_FIGURE} queue wait p50 / p99 of ${p.proJobs} Pro shots enqueued behind ${p.backlog} Starter and Growth shots, 1 worker`,
      value: `Pro ${p.proWaitP50Ms} / ${p.proWaitP99Ms} ms, others ${p.othersWaitP50Ms} / ${p.othersWaitP99Ms} ms: others wait ${p.waitRatio}× longer (p50)`,
      target: 'Pro waits less',
    },
  ];
}

const BURST_FIGURE = 'upload burst:';

function burstRows(bursts: UploadBursts): Row[] {
  const b = bursts.photos;
  const l = bursts.largeFiles;
  return [
    {
      figure: `${BURST_FIGURE} peak API RSS, ${b.uploads} uploads at once of flat ${b.megapixels} Mpx PNGs (≤ ${b.fileMb} MB, half transparent)`,
      value: `${b.apiPeakRssMb} MB (${b.apiRssBeforeMb} MB before), ${b.durationMs} ms`,
      target: '≤ 600 MB',
    },
    { figure: `${BURST_FIGURE} answers, and 5xx other than 503`, value: `${answers(b)}; ${b.serverErrors}`, target: '0' },
    { figure: `${BURST_FIGURE} /api/health every 100 ms meanwhile`, value: health(b), target: 'all answered' },
    {
      figure: `${BURST_FIGURE} peak API RSS, ${l.uploads} uploads at once of ${l.fileMb} MB files (${l.megapixels} Mpx noise PNGs)`,
      value: `${l.apiPeakRssMb} MB (${l.apiRssBeforeMb} MB before), ${l.durationMs} ms`,
      target: '≤ 400 MB',
    },
    {
      figure: `${BURST_FIGURE} ${l.uploads} × ${l.fileMb} MB answers; 503s without Retry-After; 5xx other than 503`,
      value: `${answers(l)}; ${l.refusalsWithoutRetryAfter}; ${l.serverErrors}`,
      target: '0; 0',
    },
    { figure: `${BURST_FIGURE} /api/health every 100 ms during the ${l.fileMb} MB burst`, value: health(l), target: 'all answered' },
  ];
}

function answers(b: UploadBurstResults): string {
  return Object.entries(b.statuses).map(([status, count]) => `${count} × ${status}`).join(', ');
}

function health(b: UploadBurstResults): string {
  return `${b.healthProbes - b.healthFailures} of ${b.healthProbes} answered, p99 ${b.healthP99Ms} ms, max ${b.healthMaxMs} ms`;
}

/**
 * The burst run on its own (npm run bench:upload-burst): its rows replace their namesakes in the
 * bench's table, the other figures stay as the last full run left them.
 */
export async function writeUploadBurstReport(bursts: UploadBursts): Promise<void> {
  await writePhaseRows('upload-burst', bursts, BURST_FIGURE, burstRows(bursts));
}

/** The priority phase run on its own (npm run bench:priority), as the burst is. */
export async function writePriorityReport(priority: PriorityResults): Promise<void> {
  await writePhaseRows('priority', priority, PRIORITY_FIGURE, priorityRows(priority));
}

/** Writes a phase's JSON under bench/out and puts its rows in place of their namesakes (a new phase's go before the burst's). */
async function writePhaseRows(name: string, results: object, figurePrefix: string, phaseRows: Row[]): Promise<void> {
  const dir = path.join(repoRoot, 'bench');
  await mkdir(path.join(dir, 'out'), { recursive: true });
  await writeFile(path.join(dir, 'out', `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  const table = phaseRows.map((r) => `| ${r.figure} | ${r.value} | ${r.target} |`);
  console.log(`\n${table.join('\n')}\n`);
  const file = path.join(dir, 'RESULTS.md');
  const lines = (await readFile(file, 'utf8')).split('\n');
  const start = lines.indexOf('# Benchmark results');
  const end = lines.findIndex((line, i) => i > start && line.startsWith('# '));
  const section = lines.slice(start, end === -1 ? undefined : end);
  const own = section.findIndex((line) => line.startsWith(`| ${figurePrefix}`));
  const burst = section.findIndex((line) => line.startsWith(`| ${BURST_FIGURE}`));
  const kept = section.filter((line) => !line.startsWith(`| ${figurePrefix}`));
  const at = own !== -1 ? own : burst !== -1 ? burst : kept.findLastIndex((line) => line.startsWith('|')) + 1;
  kept.splice(at, 0, ...table);
  const rest = end === -1 ? [] : lines.slice(end);
  await writeFile(file, [...lines.slice(0, start), ...kept, ...rest].join('\n'));
}

function ratio(a: number | undefined, b: number | undefined): number {
  return round((a ?? 0) / (b || 1), 2);
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** bench/results.json for machines, bench/RESULTS.md for people, and the table on stdout. */
export async function writeReport(results: BenchResults): Promise<void> {
  const dir = path.join(repoRoot, 'bench');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const table = rows(results);
  const width = Math.max(...table.map((r) => r.figure.length));
  console.log('\n' + table.map((r) => `${r.figure.padEnd(width)}  ${r.value}${r.target ? `   (target ${r.target})` : ''}`).join('\n') + '\n');
  const m = results.machine;
  const markdown = [
    '# Benchmark results',
    '',
    `Measured by \`npm run bench\` on embedded services (Postgres, Redis, filesystem storage, local engine), all on one machine:`,
    `${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GiB, Node ${m.node}. Figures vary with load; re-run to compare.`,
    '',
    '| figure | measured | target |',
    '|---|---|---|',
    ...table.map((r) => `| ${r.figure} | ${r.value} | ${r.target} |`),
    '',
    'Method: the engine figures are `generate()` on a cutout of a 2160 px corpus photo, in the bench process and,',
    "for each style the bench ran end to end, inside the worker (the style's progress events stamped either side of",
    '`generate()`, thread hand-off included). A style end to end is one `generate-single-product-shot` call with',
    '`Prefer: respond-async` until its `complete` socket event arrives; its overhead is end to end less its own',
    "engine time, and the ratio is the median overhead over the median engine time. Push latency is the event's",
    'server timestamp to client receipt. Enqueue latency is the accept time of `generate-product-shots` with',
    '`Prefer: respond-async` while 2 workers render: each seller submits at random moments (Poisson arrivals)',
    `averaging one generation a second, for ${results.enqueueWindowSeconds} s, without waiting for earlier answers;`,
    'capacity is 50 clients submitting back to back, where latency is queueing (clients ÷ accepts per second).',
    'Throughput is 24 manual shots drained by worker processes of concurrency 1. Scaling is measured as replicas',
    'scale: each worker held to 1 CPU (`WORKER_CPUS=1` and a CPU affinity, as a pod with a CPU limit of 1 or a',
    'compose `cpus: 1`); the same workers free to use every core are shown too (one such worker already spreads a',
    'render over both cores, so a second has less to add). The engine on 1 and 2 bare threads is the most this',
    'machine allows. Worker RSS is the peak of the workers that ran the smart generations. Workers run as shipped:',
    'their render threads under SCHED_IDLE (`WORKER_CPU_PRIORITY=idle`), so requests, Postgres and Redis take a',
    'core the moment they need it. Freshly started workers run 8 warm-up shots before any phase is timed (first',
    'jobs pay once for connections, JIT and engine start-up), and the bench learns that jobs are done from its',
    "sellers' sockets, never by polling the database. The load client runs on the same cores as the stack, so it",
    "calls with undici's `request` (about half the CPU of `fetch`). The upload burst comes last, workers stopped:",
    'one seller sends 30 uploads of flat 40 Mpx PNGs (a product on a transparent ground, then on white) at once while',
    "/api/health is asked every 100 ms; its peak RSS is the API's from the burst's start (the kernel's peak is reset",
    'there, after the load phases\' peak is read). `npm run bench:upload-burst` runs it alone on a fresh stack.',
    'Priority processing: one worker of concurrency 1, warmed up, is handed 20 studio shots alternating a Starter and',
    "a Growth seller, then 5 from a Pro seller; each job's wait is BullMQ's own stamps, from enqueue to a worker taking it.",
    '`npm run bench:priority` runs it alone on a fresh stack. The style end to end and the smart phases need a plan',
    "with smart generation: their sellers are on Growth, so those shots are 4096 px (Growth's quality).",
    '',
  ].join('\n');
  await upsertSection('# Benchmark results', markdown);
}

/**
 * bench/RESULTS.md holds the bench's table and the soak's summary, each written by its own run:
 * a run replaces its own section (from its heading to the next top-level one) and keeps the rest.
 */
export async function upsertSection(heading: string, body: string): Promise<void> {
  const file = path.join(repoRoot, 'bench', 'RESULTS.md');
  await mkdir(path.dirname(file), { recursive: true });
  const current = await readFile(file, 'utf8').catch(() => '');
  const sections = current.split(/^(?=# )/m).filter((section) => section.trim() && !section.startsWith(`${heading}\n`));
  const ordered = [...sections, body.endsWith('\n') ? body : `${body}\n`].sort((a, b) => Number(b.startsWith('# Benchmark')) - Number(a.startsWith('# Benchmark')));
  await writeFile(file, ordered.map((section) => section.trimEnd() + '\n').join('\n'));
}
