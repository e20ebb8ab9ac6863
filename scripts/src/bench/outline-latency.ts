import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SubjectDto, Tap } from '@prodshot/contracts';
import { corpusFile } from '@prodshot/fixtures';
import { repoRoot } from './bench-stack.js';
import { uploadPhoto } from './seller.js';

const PRODUCTS = ['saleor-dash-force-1.png', 'saleor-mighty-mug.png', 'solidus_canvas_tote.png', 'saleor-sunnies.png', 'solidus_cap_red_1.png', 'saleor-apple-drink.png'];

/** A seller's photo for the bench: a corpus product on one of bench/real-photos, 1024 px on its long side. */
export interface OutlinePhoto {
  name: string;
  bytes: Buffer;
  /** A point on the product near its middle, as fractions of the photo: where a seller taps to keep it. */
  product: { x: number; y: number };
}

export interface OutlineLatency {
  photos: number;
  /** Upload answered → the subject's outline readable, ms per photo. */
  uploadToOutlineMs: number[];
  /** A keep tap sent → its outline answered and its picture downloaded, ms per tap. */
  tapRoundTripMs: number[];
  /** Photos refused as empty and taps that failed, each with its reason. */
  failures: string[];
}

/**
 * Photos a seller takes: each product at 40% of the short side on a photographed surface, placed
 * off-centre by a fixed pattern, JPEG at quality 85 (a phone's). Deterministic: the same photos every run.
 */
export async function outlinePhotos(count: number): Promise<OutlinePhoto[]> {
  const folder = path.join(repoRoot, 'bench', 'real-photos');
  const surfaces = (await readdir(folder)).filter((name) => name.endsWith('.jpg') && !name.startsWith('empty-')).sort();
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const surface = surfaces[(i * 7) % surfaces.length]!;
      const productName = PRODUCTS[i % PRODUCTS.length]!;
      const backdrop = await sharp(path.join(folder, surface)).resize(1024, 1024, { fit: 'inside' }).toBuffer({ resolveWithObject: true });
      const { width, height } = backdrop.info;
      const side = Math.round(Math.min(width, height) * 0.4);
      const product = await sharp(corpusFile('products', productName)).trim().resize(side, side, { fit: 'inside' }).toBuffer({ resolveWithObject: true });
      const left = Math.round((width - product.info.width) * [0.3, 0.5, 0.7][i % 3]!);
      const top = Math.round((height - product.info.height) * [0.6, 0.4, 0.5][i % 3]!);
      const bytes = await sharp(backdrop.data).composite([{ input: product.data, left, top }]).jpeg({ quality: 85 }).toBuffer();
      const onProduct = await opaquePixelNearestCentroid(product.data);
      return { name: `${productName.replace(/\.png$/, '')}@${surface}`, bytes, product: { x: (left + onProduct.x) / width, y: (top + onProduct.y) / height } };
    }),
  );
}

/**
 * Where a seller taps a product: on it, near its middle. The centroid alone can fall between a pair
 * of sunglasses' lenses, on the background, so the tap goes to the solid pixel nearest it.
 */
async function opaquePixelNearestCentroid(png: Buffer): Promise<{ x: number; y: number }> {
  const { data, info } = await sharp(png).ensureAlpha().extractChannel('alpha').raw().toBuffer({ resolveWithObject: true });
  const solid = (p: number) => data[p]! >= 200;
  let sumX = 0, sumY = 0, count = 0;
  for (let p = 0; p < data.length; p++) if (solid(p)) [sumX, sumY, count] = [sumX + (p % info.width), sumY + Math.floor(p / info.width), count + 1];
  const [cx, cy] = [sumX / count, sumY / count];
  let best = { x: cx, y: cy }, bestDistance = Number.POSITIVE_INFINITY;
  for (let p = 0; p < data.length; p++) {
    const x = p % info.width, y = Math.floor(p / info.width), distance = (x - cx) ** 2 + (y - cy) ** 2;
    if (solid(p) && distance < bestDistance) [best, bestDistance] = [{ x: x + 0.5, y: y + 0.5 }, distance];
  }
  return best;
}

/**
 * The owner's 'image:subject' events by upload, as the web app hears them: the socket, not a poll,
 * so the bench adds no load of its own to the machine making the outline.
 */
class SubjectEvents {
  private readonly seen = new Map<string, SubjectDto>();
  private readonly waiting = new Map<string, (subject: SubjectDto) => void>();

  private constructor(readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>) {
    socket.on('image:subject', (subject) => {
      const waiter = this.waiting.get(subject.imageId);
      if (waiter) waiter(subject);
      else this.seen.set(subject.imageId, subject);
    });
  }

  static async open(baseUrl: string, token: string): Promise<SubjectEvents> {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(baseUrl, { auth: { token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return new SubjectEvents(socket);
  }

  /** The upload's analysed subject, once its event came. */
  analysed(imageId: string): Promise<SubjectDto> {
    const early = this.seen.get(imageId);
    if (early) return Promise.resolve(early);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no subject for ${imageId} within 2 min`)), 120_000);
      this.waiting.set(imageId, (subject) => {
        clearTimeout(timer);
        this.waiting.delete(imageId);
        resolve(subject);
      });
    });
  }
}

/** Downloads an outline's picture, as the screen does to show it. */
async function downloadOutline(baseUrl: string, url: string): Promise<void> {
  const picture = await fetch(new URL(url, baseUrl));
  if (picture.status !== 200) throw new Error(`outline picture: ${picture.status}`);
  await picture.arrayBuffer();
}

/** What the seller waits for after a tap: the new outline answered, and its picture on screen. */
async function tapRoundTrip(baseUrl: string, token: string, imageId: string, taps: Tap[]): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/images/${imageId}/outline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ focus: taps }),
  });
  if (response.status !== 200) throw new Error(`outline: ${response.status} ${await response.text()}`);
  const { data } = (await response.json()) as { data: SubjectDto };
  await downloadOutline(baseUrl, data.outline!.url!);
  return performance.now() - started;
}

/**
 * One seller, one photo at a time, as a seller uploads and then checks the outline: the time from
 * the upload's answer to the outline being readable, then the round trip of a keep tap on the
 * product. Sequential on purpose: this is the wait one seller sees, not the stack's throughput.
 */
export async function measureOutlineLatency(baseUrl: string, token: string, photos: OutlinePhoto[]): Promise<OutlineLatency> {
  const result: OutlineLatency = { photos: photos.length, uploadToOutlineMs: [], tapRoundTripMs: [], failures: [] };
  const events = await SubjectEvents.open(baseUrl, token);
  try {
    for (const photo of photos) await measurePhoto(baseUrl, token, events, photo, result);
  } finally {
    events.socket.close();
  }
  return result;
}

/** One upload's wait for its outline on screen, then one keep tap's round trip. */
async function measurePhoto(baseUrl: string, token: string, events: SubjectEvents, photo: OutlinePhoto, result: OutlineLatency): Promise<void> {
  const imageId = await uploadPhoto(baseUrl, token, photo.bytes, `${photo.name}.jpg`);
  const uploadedAt = performance.now();
  const subject = await events.analysed(imageId);
  if (subject.status === 'failed' || !subject.outline?.url) {
    result.failures.push(`${photo.name}: ${subject.error ?? 'no outline'}`);
    return;
  }
  await downloadOutline(baseUrl, subject.outline.url);
  result.uploadToOutlineMs.push(performance.now() - uploadedAt);
  // A tap the API gave up on (504 after its wait) is a result to report, not a reason to stop.
  await tapRoundTrip(baseUrl, token, imageId, [{ ...photo.product, keep: true }]).then(
    (ms) => result.tapRoundTripMs.push(ms),
    (error: Error) => result.failures.push(`${photo.name}: ${error.message}`),
  );
}
