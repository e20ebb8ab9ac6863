import { setTimeout as sleep } from 'node:timers/promises';
import sharp, { type Colour } from 'sharp';
import { Agent, FormData, request } from 'undici';
import type { BenchStack } from './bench-stack.js';
import { percentile, round } from './stats.js';

/** Uploads sent at once, each a photo at about the 40 Mpx cap: the decode is the costly part, not the bytes. */
export const UPLOAD_BURST = 30;
const WIDTH = 7_800;
const HEIGHT = 5_100;
const HEALTH_EVERY_MS = 100;

export interface UploadBurstResults {
  uploads: number;
  megapixels: number;
  fileMb: number;
  /** How many uploads got each status. */
  statuses: Record<string, number>;
  /** Answers of 500 and above other than 503 (the target is none). */
  serverErrors: number;
  /** Peak API RSS from the burst's start to its last answer. */
  apiPeakRssMb: number;
  apiRssBeforeMb: number;
  durationMs: number;
  healthProbes: number;
  healthFailures: number;
  healthP99Ms: number;
  healthMaxMs: number;
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
 * (11) 30 uploads of a 40 Mpx PNG (half transparent, half opaque) sent at once by one seller, while /api/health is asked every
 * 100 ms: the API's peak RSS over the burst, what each upload was answered, and whether health
 * kept answering. The API bounds its decodes (UPLOAD_DECODE_*), so some answers are 503.
 */
export async function uploadBurst(stack: BenchStack, token: string): Promise<UploadBurstResults> {
  const photos = await burstPhotos();
  const client = new Agent({ connections: UPLOAD_BURST + 2 });
  const send = async (n: number) => {
    const form = new FormData();
    form.append('image', new Blob([photos[n % 2]!], { type: 'image/png' }), `burst-${n}.png`);
    const response = await request(`${stack.baseUrl}/api/images/upload`, { method: 'POST', dispatcher: client, headers: { authorization: `Bearer ${token}` }, body: form });
    await response.body.dump();
    return response.statusCode;
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
  const statuses = await Promise.all(Array.from({ length: UPLOAD_BURST }, (_, n) => send(n).catch(() => 0)));
  const durationMs = performance.now() - started;
  running = false;
  const probes = await health;
  const apiPeakRssMb = stack.api.peakRssMb();
  await client.close();
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[String(status)] = (counts[String(status)] ?? 0) + 1;
  return {
    uploads: UPLOAD_BURST,
    megapixels: round((WIDTH * HEIGHT) / 1e6),
    fileMb: round(Math.max(...photos.map((photo) => photo.length)) / 1024 ** 2, 2),
    statuses: counts,
    serverErrors: statuses.filter((status) => status === 0 || (status >= 500 && status !== 503)).length,
    apiPeakRssMb: round(apiPeakRssMb),
    apiRssBeforeMb: round(rssBefore),
    durationMs: Math.round(durationMs),
    healthProbes: probes.length,
    healthFailures: probes.filter((probe) => !probe.ok).length,
    healthP99Ms: round(percentile(probes.map((probe) => probe.ms), 99)),
    healthMaxMs: round(Math.max(...probes.map((probe) => probe.ms))),
  };
}
