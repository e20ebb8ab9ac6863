import sharp from 'sharp';
import { connectedComponents, dilate } from './mask-ops.js';
import type { SaliencyMap, SalientGroup } from './saliency-map.js';

/**
 * Sureness of an object the model drew alone. Below it, the object may be fused with what lies
 * behind it: the model looks again, closer.
 */
export const SURE_OBJECT = 0.8;

/** An object chosen in a saliency map, with the map it was drawn in and how sure the model is of it. */
export interface Picked {
  map: SaliencyMap;
  /** The chosen object's pixels in the map. */
  members: Uint8Array;
  confidence: number;
}

export function chosen(map: SaliencyMap, labels: Int32Array, group: SalientGroup): Picked {
  return { map, members: confidentMembers(map, membersOf(labels, group)), confidence: group.confidence };
}

export function membersOf(labels: Int32Array, group: SalientGroup): Uint8Array {
  // A table by label, not Set lookups per pixel: this runs over every pixel of the map.
  const member = new Uint8Array(Math.max(...group.members) + 1);
  for (const label of group.members) member[label] = 1;
  const out = new Uint8Array(labels.length);
  for (let p = 0; p < labels.length; p++) out[p] = member[labels[p]!] ?? 0;
  return out;
}

/** Share of the mask the model must be sure of (≥ 0.9) before weaker blobs are cut away. */
const SURE_CORE = 0.3;

/**
 * The group's pixels less the weakly salient blobs fused to it: a pebble touching a shoe, a
 * cushion behind a mug. Only what lies near a part the model is sure of is kept; an object the
 * model is unsure of all over is kept whole, as there is no sure part to keep instead.
 */
function confidentMembers(map: SaliencyMap, group: Uint8Array): Uint8Array {
  const { width, height, mask } = map;
  const members = group.slice(),
    sure = new Uint8Array(width * height);
  let area = 0,
    sureArea = 0;
  for (let p = 0; p < members.length; p++) {
    if (!members[p]) continue;
    area++;
    if (mask[p]! < 0.9) continue;
    sure[p] = 1;
    sureArea++;
  }
  if (sureArea < SURE_CORE * area) return members;
  const cores = connectedComponents(sure, width, height);
  const largest = Math.max(...cores.sizes);
  const kept = new Uint8Array(sure.length);
  for (let p = 0; p < kept.length; p++)
    kept[p] = cores.labels[p] && cores.sizes[cores.labels[p]! - 1]! >= 0.05 * largest ? 1 : 0;
  const near = dilate(kept, width, height, Math.max(2, Math.round(0.025 * Math.min(width, height))));
  for (let p = 0; p < members.length; p++) members[p] = members[p]! & near[p]!;
  return members;
}

/**
 * The model's soft mask of the chosen object at the photo's resolution: other objects are cleared,
 * the object's soft rim (a little beyond its 0.5 outline) is kept for the refinement to decide.
 */
export async function softMask(
  { map, members }: Picked,
  image: { width: number; height: number },
): Promise<Uint8Array> {
  const { width, height, window } = map;
  const near = dilate(members, width, height, Math.max(2, Math.round(0.01 * Math.min(width, height))));
  const soft = Buffer.alloc(width * height);
  for (let p = 0; p < soft.length; p++) soft[p] = near[p] ? Math.round(map.mask[p]! * 255) : 0;
  const resized =
    window.width >= width || window.height >= height
      ? upsample(soft, width, height, window.width, window.height)
      : await sharp(soft, { raw: { width, height, channels: 1 } })
          .resize(window.width, window.height, { fit: 'fill', kernel: 'linear' })
          .toColourspace('b-w')
          .raw()
          .toBuffer();
  if (window.width === image.width && window.height === image.height) return resized;
  const out = new Uint8Array(image.width * image.height);
  for (let y = 0; y < window.height; y++)
    out.set(resized.subarray(y * window.width, (y + 1) * window.width), (window.y + y) * image.width + window.x);
  return out;
}

/**
 * Bilinear resize with pixel centres aligned (output centre (x + ½)·w/W − ½ in the input). sharp's
 * enlargement lands half an output pixel down and to the right, which moved every outline that
 * way: the product's left and top rims, and thin parts along them, fell outside the mask.
 */
export function upsample(
  values: Uint8Array,
  width: number,
  height: number,
  outWidth: number,
  outHeight: number,
): Uint8Array {
  const out = new Uint8Array(outWidth * outHeight);
  const sx = width / outWidth,
    sy = height / outHeight;
  const x0 = new Int32Array(outWidth),
    x1 = new Int32Array(outWidth),
    fx = new Float32Array(outWidth);
  for (let x = 0; x < outWidth; x++) {
    const at = Math.min(width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    x0[x] = Math.floor(at);
    x1[x] = Math.min(width - 1, x0[x]! + 1);
    fx[x] = at - x0[x]!;
  }
  for (let y = 0; y < outHeight; y++) {
    const at = Math.min(height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const r0 = Math.floor(at) * width,
      r1 = Math.min(height - 1, Math.floor(at) + 1) * width,
      fy = at - Math.floor(at);
    for (let x = 0; x < outWidth; x++) {
      const top = values[r0 + x0[x]!]! + (values[r0 + x1[x]!]! - values[r0 + x0[x]!]!) * fx[x]!;
      const bottom = values[r1 + x0[x]!]! + (values[r1 + x1[x]!]! - values[r1 + x0[x]!]!) * fx[x]!;
      out[y * outWidth + x] = Math.round(top + (bottom - top) * fy);
    }
  }
  return out;
}
