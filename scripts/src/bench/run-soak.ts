// Over 250 lines: the soak's driver: the load, the checks each bar needs and the report, read as one run.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { freePort, startLocalS3, startStallingProxy, type StallingProxy } from '@prodshot/embedded';
import { corpusFile } from '@prodshot/fixtures';
import { startBenchStack, startWorkersAndWait, type BenchStack, type ServiceProcess } from './bench-stack.js';
import { upsertSection } from './report.js';
import { newSeller, post, putOnPlan, type Seller } from './seller.js';
import { percentile, round } from './stats.js';

const PRODUCT = corpusFile('products', 'saleor-dash-force-1.png');
const SELLERS = 20;
const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const STALL_EVERY_MS = 90_000;
const STALL_MS = 15_000;
/** Issue 31's bar for a 10-minute soak: 4,000 requests (pro rata here), and prompts answered within 3 s at p99. */
const MIN_REQUESTS_PER_MINUTE = 400;
const ENHANCE_P99_MS = 3_000;
/** A killed worker's jobs go back to the queue once their lock lapses. */
const LOCK_DURATION_MS = 10_000;

interface Tally {
  requests: number;
  byStatus: Record<string, number>;
  started: string[];
  /** Paid calls sent three times with one Idempotency-Key (a double click, then a retry). */
  retried: number;
  /** Of those, the ones whose three answers named more than one generation: must stay 0. */
  keyMismatches: number;
  /** 5xx answers other than the documented 503 + Retry-After of an injected outage: must stay 0. */
  unannounced5xx: number;
  /** How long each prompt enhancement (the soak's one synchronous call) took. */
  enhanceMs: number[];
  /** When each slow enhancement (over the bar) was sent, to tell what it waited behind. */
  slowEnhancements: Array<{ at: number; ms: number }>;
  /** When the faults struck: object-store stalls [start, end] and worker kills. */
  stallWindows: Array<[number, number]>;
  killsAt: number[];
}

type Count = (answer: { status: number; retryAfter?: string | undefined }) => void;

function log(message: string): void {
  console.log(`[soak] ${message}`);
}

/**
 * A paid call as a flaky client makes it: sent twice at once (a double click), then once more
 * (a retry after a lost answer), all with one Idempotency-Key. Every answer must name one generation.
 */
async function paidCall(stack: BenchStack, seller: Seller, url: string, body: object, tally: Tally, count: Count): Promise<void> {
  const headers = { 'idempotency-key': randomUUID() };
  const first = await Promise.all([post(stack.baseUrl, seller, url, body, true, headers), post(stack.baseUrl, seller, url, body, true, headers)]);
  const answers = [...first, await post(stack.baseUrl, seller, url, body, true, headers)];
  for (const answer of answers) count(answer);
  const ids = new Set(answers.filter((a) => a.status === 202).map((a) => (a.json.data as { generationId: string }).generationId));
  tally.retried += 1;
  if (ids.size > 1) tally.keyMismatches += 1;
  tally.started.push(...ids);
}

/**
 * A busy seller's pace, calibrated to what two single-render workers finish at Growth's 4096 px (a
 * shot is seconds of CPU, not the 0.2 s of a 1024 px one): a paid call every minute or so, a prompt
 * enhancement every fifth turn between them, and otherwise the reads an open app makes (history,
 * images, profile) every 2 to 3.5 s.
 */
const PAID_EVERY_MS = [60_000, 90_000] as const;
const THINK_MS = [2_000, 3_500] as const;
const ENHANCE_EVERY_TURNS = 5;
const READS = ['/api/images/recent/generations', '/api/images?limit=12', '/api/users/profile'] as const;

const between = ([low, high]: readonly [number, number]) => low + Math.random() * (high - low);

/** One seller's loop: paid calls (each sent three times with one key, alternating smart and manual), prompt enhancements and reads. */
async function sellerLoop(stack: BenchStack, seller: Seller, until: number, tally: Tally): Promise<void> {
  const count: Count = ({ status, retryAfter }) => {
    tally.requests += 1;
    tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
    if (status >= 500 && !(status === 503 && retryAfter)) tally.unannounced5xx += 1;
  };
  // Sellers start their first paid call at random moments, not all at once.
  let nextPaidAt = Date.now() + Math.random() * PAID_EVERY_MS[1];
  let paid = 0;
  let turn = 0;
  while (Date.now() < until) {
    turn += 1;
    if (Date.now() >= nextPaidAt) {
      paid += 1;
      nextPaidAt = Date.now() + between(PAID_EVERY_MS);
      if (paid % 2 === 0) await paidCall(stack, seller, '/api/images/smart-generate-product-shots', { imageId: seller.imageId, styleCount: 2 }, tally, count);
      else await paidCall(stack, seller, '/api/images/generate-product-shots', { imageId: seller.imageId, backgroundType: 'marble' }, tally, count);
    } else if (turn % ENHANCE_EVERY_TURNS === 0) {
      const sentAt = Date.now();
      const enhanced = await post(stack.baseUrl, seller, '/api/images/enhance-prompt', { prompt: 'Beach sunset' }, false);
      tally.enhanceMs.push(enhanced.ms);
      if (enhanced.ms > ENHANCE_P99_MS) tally.slowEnhancements.push({ at: sentAt, ms: enhanced.ms });
      count(enhanced);
    } else {
      const r = await fetch(`${stack.baseUrl}${READS[turn % READS.length]!}`, { headers: { authorization: `Bearer ${seller.token}` } });
      await r.arrayBuffer();
      count({ status: r.status, retryAfter: r.headers.get('retry-after') ?? undefined });
    }
    await sleep(between(THINK_MS));
  }
}

/** Stalls the object store (connections open, nothing answers) for STALL_MS every STALL_EVERY_MS, as a hung MinIO would. */
async function storageStalls(proxy: StallingProxy, until: number, tally: Tally): Promise<number> {
  let stalls = 0;
  while (Date.now() + STALL_EVERY_MS < until) {
    await sleep(STALL_EVERY_MS - STALL_MS);
    proxy.stall();
    const stalledAt = Date.now();
    stalls += 1;
    log(`object store stalled (${stalls})`);
    await sleep(STALL_MS);
    proxy.resume();
    tally.stallWindows.push([stalledAt, Date.now()]);
  }
  return stalls;
}

/** Kills a worker with SIGKILL every minute and starts one in its place, as an orchestrator replacing a crashed replica does. */
async function chaos(stack: BenchStack, running: ServiceProcess[], until: number, tally: Tally): Promise<number> {
  // A copy: the stack keeps its own list of the workers it started, to stop them at the end.
  const workers = [...running];
  let kills = 0;
  while (Date.now() < until) {
    await sleep(Math.min(60_000, Math.max(0, until - Date.now())));
    if (Date.now() >= until) break;
    const victim = workers.shift()!;
    victim.child.kill('SIGKILL');
    kills += 1;
    tally.killsAt.push(Date.now());
    log(`killed worker ${victim.child.pid} (${kills})`);
    workers.push(stack.addWorker(1));
  }
  return kills;
}

/** Where the enhancements over the bar came from: sent during an object-store stall, or soon after a worker was killed. */
function slowEnhancementLine({ slowEnhancements, stallWindows, killsAt }: Tally): string {
  const inStall = slowEnhancements.filter(({ at }) => stallWindows.some(([start, end]) => at >= start && at <= end)).length;
  const afterKill = slowEnhancements.filter(({ at }) => killsAt.some((killedAt) => at >= killedAt && at - killedAt <= 2 * LOCK_DURATION_MS)).length;
  return `enhancements over ${ENHANCE_P99_MS} ms: ${slowEnhancements.length}, sent during an object-store stall: ${inStall}, within ${(2 * LOCK_DURATION_MS) / 1000} s after a worker kill: ${afterKill}`;
}

/** Each slow enhancement beside the faults before it, for whoever looks for their cause (printed, not recorded). */
function slowEnhancementDetails({ slowEnhancements, stallWindows, killsAt }: Tally, startedAt: number): string[] {
  const secondsSince = (at: number, moments: number[]) => {
    const last = Math.max(...moments.filter((moment) => moment <= at));
    return Number.isFinite(last) ? `${round((at - last) / 1000)} s` : 'none yet';
  };
  return slowEnhancements.map(
    ({ at, ms }) =>
      `  slow enhancement at ${round((at - startedAt) / 1000)} s: ${round(ms)} ms; since the last stall began ${secondsSince(at, stallWindows.map(([start]) => start))}, ended ${secondsSince(at, stallWindows.map(([, end]) => end))}, since the last kill ${secondsSince(at, killsAt)}`,
  );
}

/**
 * Where slow enhancements spent their time, from BullMQ's own stamps on each enhance job: waiting
 * in the queue (added → taken), running in the worker (taken → finished), and whether a lost lock
 * made another worker run it again. Slow answers with no slow job waited in the API, not the worker.
 */
async function enhanceJobLine(stack: BenchStack): Promise<string> {
  const queue = new Queue('interactive', { connection: { url: stack.env.REDIS_URL }, prefix: 'prodshot' });
  try {
    const jobs = (await queue.getJobs(['completed', 'failed'], 0, -1)).filter((job) => job.name === 'enhance-prompt' && job.finishedOn && job.processedOn);
    const slow = jobs.filter((job) => job.finishedOn! - job.timestamp > ENHANCE_P99_MS);
    const waited = slow.map((job) => job.processedOn! - job.timestamp);
    const ran = slow.map((job) => job.finishedOn! - job.processedOn!);
    const rerun = slow.filter((job) => job.attemptsStarted > 1 || job.stalledCounter > 0).length;
    const range = (values: number[]) => (values.length ? `p50 ${round(percentile(values, 50))} / max ${round(Math.max(...values))} ms` : '—');
    return `enhance jobs over ${ENHANCE_P99_MS} ms from added to finished, in the worker's stamps: ${slow.length} of ${jobs.length}; waiting in the queue ${range(waited)}, running ${range(ran)}, run again after a lost lock ${rerun}`;
  } finally {
    await queue.close();
  }
}

async function main(): Promise<void> {
  const s3Dir = await mkdtemp(path.join(tmpdir(), 'prodshot-soak-s3-'));
  const s3 = await startLocalS3({ dataDir: s3Dir, port: await freePort() });
  const proxy = await startStallingProxy({ host: s3.endPoint, port: s3.port });
  const stack = await startBenchStack({
    WORKER_LOCK_DURATION_MS: String(LOCK_DURATION_MS),
    SWEEPER_INTERVAL_MS: '15000',
    SWEEPER_STALE_AFTER_MS: '60000',
    // MinIO's protocol through a proxy the soak can stall; a stalled call fails after 5 s.
    MINIO_ENDPOINT: '127.0.0.1',
    MINIO_PORT: String(proxy.port),
    MINIO_ACCESS_KEY: s3.accessKey,
    MINIO_SECRET_KEY: s3.secretKey,
    MINIO_REGION: s3.region,
    STORAGE_TIMEOUT_MS: '5000',
  });
  try {
    const sellers = await Promise.all(Array.from({ length: SELLERS }, (_, n) => newSeller(stack.baseUrl, stack.db, n, PRODUCT, 400)));
    // Prompt enhancement is Growth's.
    await Promise.all(sellers.map((seller) => putOnPlan(stack.db, seller, 'growth')));
    const granted = SELLERS * 400;
    const { workers, bootMs } = await startWorkersAndWait(stack, 2, 1);
    log(`both workers took their queues ${round(bootMs / 1000)} s after they were started`);
    const until = Date.now() + minutes * 60_000;
    const tally: Tally = { requests: 0, byStatus: {}, started: [], retried: 0, keyMismatches: 0, unannounced5xx: 0, enhanceMs: [], slowEnhancements: [], stallWindows: [], killsAt: [] };
    log(`${SELLERS} sellers for ${minutes} min, a worker killed and replaced every minute, the object store stalled ${STALL_MS / 1000} s every ${STALL_EVERY_MS / 1000} s…`);
    const [kills, stalls] = await Promise.all([chaos(stack, workers, until, tally), storageStalls(proxy, until, tally), ...sellers.map((s) => sellerLoop(stack, s, until, tally))]);
    log('traffic stopped; waiting for every generation to settle…');
    const deadline = Date.now() + 10 * 60_000;
    let open = Infinity;
    while (Date.now() < deadline && open > 0) {
      const rows = await stack.db.selectFrom('generations').select('status').where('status', 'in', ['queued', 'running']).execute();
      open = rows.length;
      if (open > 0) await sleep(2_000);
    }
    const final = await stack.db.selectFrom('generations').select(['status']).where('id', 'in', tally.started.length ? tally.started : ['00000000-0000-0000-0000-000000000000']).execute();
    const completed = final.filter((g) => g.status === 'complete').length;
    const failed = final.filter((g) => g.status === 'failed').length;
    const ledger = await stack.db.selectFrom('credit_ledger').select(['kind', 'subscription_delta', 'addon_delta']).execute();
    const net = (kind: string) => ledger.filter((r) => r.kind === kind).reduce((sum, r) => sum + r.subscription_delta + r.addon_delta, 0);
    const outputs = await stack.db.selectFrom('generation_styles').select('status').where('status', '=', 'complete').execute();
    const balances = await stack.db.selectFrom('credit_balances').select(['subscription_credits', 'addon_credits']).execute();
    const remaining = balances.reduce((sum, b) => sum + b.subscription_credits + b.addon_credits, 0);
    const spent = -(net('reserve') + net('refund'));
    const fiveXx = Object.entries(tally.byStatus).filter(([status]) => status.startsWith('5')).reduce((sum, [, n]) => sum + n, 0);
    const enhanceP99 = percentile(tally.enhanceMs, 99);
    const minRequests = MIN_REQUESTS_PER_MINUTE * minutes;
    const lines = [
      `soak: ${minutes} min, ${SELLERS} sellers, ${kills} workers SIGKILLed, ${stalls} object-store stalls of ${STALL_MS / 1000} s, ${tally.requests} requests ${JSON.stringify(tally.byStatus)}`,
      `workload: each seller a paid call every ${PAID_EVERY_MS[0] / 1000}–${PAID_EVERY_MS[1] / 1000} s (smart with 2 styles and a manual shot in turn, Growth's 4096 px), a prompt enhancement every ${ENHANCE_EVERY_TURNS}th turn, reads otherwise, turns ${THINK_MS[0] / 1000}–${THINK_MS[1] / 1000} s apart; 2 workers of one render thread, one killed and replaced every minute; traffic starts once both workers have joined their queues (${round(bootMs / 1000)} s after they were started)`,
      `paid calls sent three times with one Idempotency-Key: ${tally.retried}, answered with more than one generation: ${tally.keyMismatches}`,
      `generations started ${tally.started.length} = completed ${completed} + failed (refunded) ${failed} + still open ${open === Infinity ? 0 : open}`,
      `credits: granted ${granted} = remaining ${remaining} + spent ${spent} (stored outputs ${outputs.length}) → ${granted === remaining + spent && spent === outputs.length ? 'conserved' : 'NOT conserved'}`,
      `5xx answers: ${fiveXx}, of which not a 503 with Retry-After: ${tally.unannounced5xx}`,
      `requests: ${tally.requests} (bar: ${minRequests}); prompt enhancements: ${tally.enhanceMs.length}, p50 ${round(percentile(tally.enhanceMs, 50))} ms, p99 ${round(enhanceP99)} ms (bar: ${ENHANCE_P99_MS} ms)`,
      slowEnhancementLine(tally),
      await enhanceJobLine(stack),
    ];
    console.log([...lines, ...slowEnhancementDetails(tally, until - minutes * 60_000)].join('\n'));
    await upsertSection(
      '# Soak',
      ['# Soak', '', `Measured by \`npm run soak\` on ${new Date().toISOString().slice(0, 10)}, embedded services, one machine (see above).`, '', ...lines.map((line) => `- ${line}`), ''].join('\n'),
    );
    for (const seller of sellers) seller.socket.disconnect();
    const missed = tally.unannounced5xx > 0 || tally.requests < minRequests || enhanceP99 > ENHANCE_P99_MS;
    if (missed || tally.keyMismatches > 0 || granted !== remaining + spent || spent !== outputs.length || open > 0) process.exitCode = 1;
  } finally {
    await stack.stop();
    await proxy.close();
    await s3.stop();
    await rm(s3Dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`[soak] failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
