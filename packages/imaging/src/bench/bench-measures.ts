import { differenceCiede2000 } from 'culori';
import sharp from 'sharp';
import { bytesFrom, erode } from '../local/cutout/mask-ops.js';
import type { Placement } from '../types.js';

const deltaE = differenceCiede2000();

/** Alpha (or any single channel) with its size. */
export interface Plane {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function alphaOf(png: Buffer): Promise<Plane> {
  const { data, info } = await sharp(png).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The plane at `width` × `height` (the cutout comes at the normalised size, which may be smaller than the photo). */
async function resized(plane: Plane, width: number, height: number): Promise<Plane> {
  if (plane.width === width && plane.height === height) return plane;
  const data = await sharp(plane.data, { raw: { width: plane.width, height: plane.height, channels: 1 } }).resize(width, height, { fit: 'fill' }).extractChannel(0).raw().toBuffer();
  return { data, width, height };
}

/** IoU of alpha ≥ 128, at the truth's size. */
export async function iou(truth: Plane, cutout: Buffer): Promise<number> {
  const found = await resized(await alphaOf(cutout), truth.width, truth.height);
  let both = 0, either = 0;
  for (let p = 0; p < truth.data.length; p++) {
    const t = truth.data[p]! >= 128, f = found.data[p]! >= 128;
    if (t && f) both++;
    if (t || f) either++;
  }
  return either ? both / either : 1;
}

const toRgb = (data: Buffer, i: number) => ({ mode: 'rgb' as const, r: data[i]! / 255, g: data[i + 1]! / 255, b: data[i + 2]! / 255 });

/**
 * Mean ΔE2000 between the input and the shot over the eroded product interior, after undoing
 * the placement: the input region the engine reports is resized to where it says it landed.
 * `sourceScale` is input pixels per pixel of the engine's normalised image (its cutout's size).
 */
export async function fidelity(input: Buffer, truth: Plane, shot: Buffer, placement: Placement, sourceScale: number): Promise<number> {
  const { sourceBox, box } = placement;
  const left = Math.round(sourceBox.x * sourceScale), top = Math.round(sourceBox.y * sourceScale);
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(truth.width - left, Math.round(sourceBox.width * sourceScale))),
    height: Math.max(1, Math.min(truth.height - top, Math.round(sourceBox.height * sourceScale))),
  };
  const width = Math.round(box.width), height = Math.round(box.height);
  // Resized as the engine resizes the product (sharp's default fit): the reference is then the
  // engine's own single resampling, and any difference is colour the engine changed.
  const expected = await sharp(input).extract(region).resize(width, height).removeAlpha().raw().toBuffer();
  const alpha = await sharp(truth.data, { raw: { width: truth.width, height: truth.height, channels: 1 } }).extract(region).resize(width, height).extractChannel(0).raw().toBuffer();
  const interior = erode(bytesFrom(alpha, (a) => (a === 255 ? 1 : 0)), width, height, 3);
  const actual = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0, count = 0;
  for (let y = 0; y < height; y += 2) {
    const sy = Math.round(box.y) + y;
    if (sy < 0 || sy >= actual.info.height) continue;
    for (let x = 0; x < width; x += 2) {
      const sx = Math.round(box.x) + x;
      if (sx < 0 || sx >= actual.info.width || !interior[y * width + x]) continue;
      sum += deltaE(toRgb(expected, (y * width + x) * 3), toRgb(actual.data, (sy * actual.info.width + sx) * 3));
      count++;
    }
  }
  return count ? sum / count : 0;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
}

export function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Mean and worst IoU of some cases, the worst one named. */
export function iouSummary<T>(items: T[], iouOf: (item: T) => number, name: (item: T) => string) {
  if (!items.length) return { cases: 0, meanIoU: NaN, worstIoU: NaN, worstCase: '' };
  const worst = items.reduce((a, b) => (iouOf(b) < iouOf(a) ? b : a));
  return { cases: items.length, meanIoU: round(mean(items.map(iouOf)), 4), worstIoU: round(iouOf(worst), 4), worstCase: name(worst) };
}

export const pad = (value: string | number, width: number) => String(value).padStart(width);
