import os from 'node:os';
import { CreditsRepository } from '@prodshot/db';
import { runMain, startBenchStack, startWorkersAndWait } from './bench-stack.js';
import { measureOutlineLatency, outlinePhotos, type OutlineLatency } from './outline-latency.js';
import { upsertSection } from './report.js';
import { percentile, round } from './stats.js';

/** Issue 30's bars: the outline on screen within 1.5 s of the upload, and a tap's new outline within 1.5 s. */
const BAR_MS = 1_500;
const PHOTOS = Number(process.env.BENCH_OUTLINE_PHOTOS ?? 12);
/** Photos sent first and not counted: a fresh worker's first jobs pay once for JIT and connections. */
const WARM_UP = 2;

function row(figure: string, values: number[]): string {
  const [p50, p95, max] = [50, 95, 100].map((p) => round(percentile(values, p), 0));
  return `| ${figure} | ${p50} / ${p95} / ${max} ms | p95 ≤ ${BAR_MS} ms ${p95! <= BAR_MS ? '✓' : '✗'} |`;
}

function section(latency: OutlineLatency, bootMs: number): string {
  const cpus = os.cpus();
  return [
    '# Outline before paying',
    '',
    `Measured by \`npm run bench:outline\` on ${new Date().toISOString().slice(0, 10)}: the built stack on embedded services, one worker as \`npm start\` runs it`,
    `(WORKER_CONCURRENCY=2, local engine), ${cpus.length} × ${cpus[0]?.model.trim()}, Node ${process.version}; the worker took its queues ${round(bootMs / 1000)} s after it was started.`,
    '',
    '| figure (p50 / p95 / max) | measured | bar |',
    '|---|---|---|',
    row(`upload answered → outline on screen (${latency.uploadToOutlineMs.length} photos)`, latency.uploadToOutlineMs),
    row(`keep tap → new outline answered and its picture downloaded (${latency.tapRoundTripMs.length} taps)`, latency.tapRoundTripMs),
    '',
    `Refused photos and failed taps: ${latency.failures.length ? latency.failures.join('; ') : 'none'}.`,
    '',
    `Method: one seller, one photo at a time (${PHOTOS} photos after ${WARM_UP} not counted): each a corpus product at 40% of the short side`,
    'on a photograph of bench/real-photos, 1024 px, JPEG quality 85 (`outline-latency.ts`). The first figure runs from the',
    "upload's 201 until the seller's socket has carried the `image:subject` event with the outline (as the web app hears it; a",
    'poll would load the machine it measures) and the outline picture it names has been downloaded. The second is',
    '`POST /api/images/:id/outline` with a keep tap on the product near its middle (its solid pixel nearest its centroid), until its',
    'answer and the outline picture it names have both arrived: what a seller waits for between a tap and the new outline.',
    '',
  ].join('\n');
}

/** Issue 30's outline timings on a fresh stack: minutes, on their own. */
async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const { bootMs } = await startWorkersAndWait(stack, 1, 2);
    const signIn = await fetch(`${stack.baseUrl}/api/dev/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `outline-${Date.now()}@bench.example`, name: 'Outline' }),
    });
    const { token, userId } = (await signIn.json()) as { token: string; userId: string };
    // A paying seller: an account with nothing gets 10 free analyses a day, fewer than the bench's uploads.
    await new CreditsRepository(stack.db).grantAddOn({ userId, amount: 100, idempotencyKey: `bench-grant:${userId}` });
    const photos = await outlinePhotos(WARM_UP + PHOTOS);
    console.log(`[bench] outline: ${WARM_UP} warm-up photos, then ${PHOTOS} uploads, each followed by a keep tap…`);
    await measureOutlineLatency(stack.baseUrl, token, photos.slice(0, WARM_UP));
    const latency = await measureOutlineLatency(stack.baseUrl, token, photos.slice(WARM_UP));
    const body = section(latency, bootMs);
    console.log(body);
    await upsertSection('# Outline before paying', body);
  } finally {
    await stack.stop();
  }
}

runMain(main);
