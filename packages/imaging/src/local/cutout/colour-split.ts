import { bytesFrom, connectedComponents, dilate, erode, fillHoles } from './mask-ops.js';
import type { SaliencyMap } from './saliency-map.js';

/** Colours as 16 levels a channel: coarse enough to learn from a few thousand pixels. */
function colourBin(rgb: Buffer, p: number): number {
  return ((rgb[p * 3]! >> 4) << 8) | ((rgb[p * 3 + 1]! >> 4) << 4) | (rgb[p * 3 + 2]! >> 4);
}

function histogram(rgb: Buffer, pixels: Uint8Array): { counts: Float32Array; total: number } {
  const counts = new Float32Array(4096);
  let total = 0;
  for (let p = 0; p < pixels.length; p++) {
    if (!pixels[p]) continue;
    counts[colourBin(rgb, p)]! += 1;
    total++;
  }
  return { counts, total };
}

/** Share of the tapped object's colours learnt from the pixels nearest the tap, and of the rest from the far end of the blob. */
const SEED_RADIUS = 0.03;
const FAR_RADIUS = 0.25;

/**
 * Splits a blob of fused objects at the tap, by colour: a colour model of the tapped object
 * (seeded around the tap) against one of the rest of the blob (seeded far from it), refined a few
 * times from the region each round finds, as GrabCut does without its graph cut. Null when the
 * split is not a plausible object (nothing, or nearly the whole blob).
 */
export function splitByColour(map: SaliencyMap, blob: Uint8Array, at: { x: number; y: number }): Uint8Array | null {
  const { width, height, rgb } = map;
  const side = Math.min(width, height);
  let inside: Uint8Array = new Uint8Array(blob.length),
    outside: Uint8Array = new Uint8Array(blob.length);
  let blobArea = 0;
  for (let p = 0; p < blob.length; p++) {
    if (!blob[p]) continue;
    blobArea++;
    const distance = Math.hypot((p % width) - at.x, Math.floor(p / width) - at.y);
    if (distance <= SEED_RADIUS * side) inside[p] = 1;
    else if (distance >= FAR_RADIUS * side) outside[p] = 1;
  }
  let region: Uint8Array | null = null;
  for (let round = 0; round < 3; round++) {
    const tapped = histogram(rgb, inside),
      rest = histogram(rgb, outside);
    if (!tapped.total || !rest.total) return null;
    const likely = new Uint8Array(blob.length);
    for (let p = 0; p < blob.length; p++) {
      if (!blob[p]) continue;
      const bin = colourBin(rgb, p);
      likely[p] =
        (tapped.counts[bin]! + 1) / (tapped.total + 4096) >= (rest.counts[bin]! + 1) / (rest.total + 4096) ? 1 : 0;
    }
    // Specks of the product's colours elsewhere in the blob are not the product: keep what touches the tap.
    const { labels } = connectedComponents(erode(dilate(likely, width, height, 2), width, height, 2), width, height);
    const label = labels[at.y * width + at.x]!;
    if (!label) return null;
    region = fillHoles(
      bytesFrom(labels, (l) => (l === label ? 1 : 0)),
      width,
      height,
    );
    inside = region;
    outside = bytesFrom(blob, (b, p) => (b && !region![p] ? 1 : 0));
  }
  let area = 0;
  for (const value of region!) area += value;
  return area >= 0.01 * blob.length && area <= 0.85 * blobArea ? region : null;
}
