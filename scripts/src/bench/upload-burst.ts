import { setTimeout as sleep } from 'node:timers/promises';
import sharp, { type Colour } from 'sharp';
import { Agent, FormData, request } from 'undici';
import type { BenchStack } from './bench-stack.js';
import { percentile, round } from './stats.js';

/** Uploads sent at once, each a photo at about the 40 Mpx cap: the decode is the costly part, not the bytes. */
export const UPLOAD_BURST = 30;
/** Uploads sent at once, each a file just under UPLOAD_MAX_BYTES: the bodies are the costly part, not the decode. */
export const LARGE_UPLOAD_BURST = 40;
const WIDTH = 7_800;
const HEIGHT = 5_100;
/** An uncompressed noise PNG of this size is 9.5 MB, under the 10 MB limit with room for its framing. */
const LARGE_SIDE = 1_780;
const HEALTH_EVERY_MS = 100;

export interface UploadBurstResults {
  uploads: number;
  megapixels: number;
  fileMb: number;
  /** How many uploads got each status. */
  statuses: Record<string, number>;
  /** Answers of 500 and above other than 503 (the target is none). */
  serverErrors: number;
  /** 503 answers without a Retry-After header (the target is none). */
  refusalsWithoutRetryAfter: number;
  /** Peak API RSS from the burst's start to its last answer. */
  apiPeakRssMb: number;
  apiRssBeforeMb: number;
  durationMs: number;
  healthProbes: number;
  healthFailures: number;
  healthP99Ms: number;
  healthMaxMs: number;
}

/** The two bursts, one after the other: costly decodes, then costly bodies. */
export interface UploadBursts {
  photos: UploadBurstResults;
  largeFiles: UploadBurstResults;
}
/**
 * Flat PNGs of about 40 Mpx and a few hundred kB: small on the wire, the costliest to re-encode.
 * A product on a transparent ground is re-encoded as PNG after its alpha is read; the same
 * product on white, opaque, as JPEG.
 */
export async function burstPhotos(): Promise<[Buffer, Buffer]> {
  const product = { input: { create: { width: WIDTH - 1_000, height: HEIGHT - 1_000, channels: 4 as const, background: '#3b6ea5' } }, left: 500, top: 500 };
  const on = (background: Colour) =>
    sharp({ create: { width: WIDTH, height: HEIGHT, channels: 4, background } }).composite([product]).png({ compressionLevel: 9 });
  return Promise.all([on({ r: 0, g: 0, b: 0, alpha: 0 }).toBuffer(), on('#ffffff').removeAlpha().toBuffer()]);
}

/**
 * Files just under the 10 MB limit: PNGs of noise stored uncompressed, so every byte is a body
 * byte the API must hold or refuse, and the decode (3.2 Mpx) is cheap beside it.
 */
export async function largeFiles(): Promise<[Buffer, Buffer]> {
  const noise = (mean: number) =>
    sharp({ create: { width: LARGE_SIDE, height: LARGE_SIDE, channels: 3, background: '#000', noise: { type: 'gaussian', mean, sigma: 60 } } })
      .png({ compressionLevel: 0 })
      .toBuffer();
  return Promise.all([noise(110), noise(150)]);
}

/**
 * (11) The upload bursts, each sent at once by one seller while /api/health is asked every 100 ms:
 * 30 uploads of a 40 Mpx PNG (half transparent, half opaque), then 40 uploads of a 10 MB file.
 * For each, the API's peak RSS over the burst, what each upload was answered (and whether each
 * 503 said when to retry), and whether health kept answering. The API bounds its decodes and the
 * bodies held for them (UPLOAD_DECODE_*), so some answers are 503.
 */
export async function uploadBursts(stack: BenchStack, token: string): Promise<UploadBursts> {
  const photos = await burst(stack, token, UPLOAD_BURST, await burstPhotos(), round((WIDTH * HEIGHT) / 1e6));
  const large = await burst(stack, token, LARGE_UPLOAD_BURST, await largeFiles(), round((LARGE_SIDE * LARGE_SIDE) / 1e6));
  return { photos, largeFiles: large };
}

async function burst(stack: BenchStack, token: string, uploads: number, files: Buffer[], megapixels: number): Promise<UploadBurstResults> {
  const client = new Agent({ connections: uploads + 2 });
  const send = async (n: number) => {
    const form = new FormData();
    form.append('image', new Blob([files[n % files.length]!], { type: 'image/png' }), `burst-${n}.png`);
    const response = await request(`${stack.baseUrl}/api/images/upload`, { method: 'POST', dispatcher: client, headers: { authorization: `Bearer ${token}` }, body: form });
    await response.body.dump();
    return { status: response.statusCode, retryAfter: response.headers['retry-after'] !== undefined };
  };
  // Reset, the peak is the resident memory now: the burst's baseline, then its own peak from here.
  stack.api.resetPeakRss();
  const rssBefore = stack.api.peakRssMb();
  const started = performance.now();
  let running = true;
  const health = (async () => {
    const probes: { ok: boolean; ms: number }[] = [];
    while (running) {
      const sent = performance.now();
      const ok = await request(`${stack.baseUrl}/api/health`, { dispatcher: client, headersTimeout: 5_000 })
        .then(async (response) => (await response.body.dump(), response.statusCode === 200))
        .catch(() => false);
      probes.push({ ok, ms: performance.now() - sent });
      await sleep(HEALTH_EVERY_MS);
    }
    return probes;
  })();
  const answers = await Promise.all(Array.from({ length: uploads }, (_, n) => send(n).catch(() => ({ status: 0, retryAfter: false }))));
  const durationMs = performance.now() - started;
  running = false;
  const probes = await health;
  const apiPeakRssMb = stack.api.peakRssMb();
  await client.close();
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[String(status)] = (counts[String(status)] ?? 0) + 1;
  return {
    uploads,
    megapixels,
    fileMb: round(Math.max(...files.map((file) => file.length)) / 1024 ** 2, 2),
    statuses: counts,
    serverErrors: answers.filter(({ status }) => status === 0 || (status >= 500 && status !== 503)).length,
    refusalsWithoutRetryAfter: answers.filter(({ status, retryAfter }) => status === 503 && !retryAfter).length,
    apiPeakRssMb: round(apiPeakRssMb),
    apiRssBeforeMb: round(rssBefore),
    durationMs: Math.round(durationMs),
    healthProbes: probes.length,
    healthFailures: probes.filter((probe) => !probe.ok).length,
    healthP99Ms: round(percentile(probes.map((probe) => probe.ms), 99)),
    healthMaxMs: round(Math.max(...probes.map((probe) => probe.ms))),
  };
}
