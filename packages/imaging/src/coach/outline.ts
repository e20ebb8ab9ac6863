import sharp from 'sharp';
import { OUTLINE_PREVIEW_SIDE, type OutlineDoubt } from '@prodshot/contracts';
import { edgeCut, type ProductMask } from './checks.js';

/**
 * When the engine is unsure of the outline it cut, and the seller must look before paying. Chosen
 * to ask rather than guess: a needless "Yes, that's my product" costs one tap, a wrong cutout
 * costs the seller every credit of the shots made from it (issue 30: the tote with the plate).
 */
export const OUTLINE_THRESHOLDS = {
  /**
   * The mask runs along a frame edge for at least this share of its extent there. The coach's
   * "cut off" needs 0.2; a tenth is already a table edge or a backdrop taken in with the product,
   * while a shoe standing on the bottom edge touches it at a heel only.
   */
  touchesFrame: 0.1,
  /** A part of the mask holding at least this share of its area is a large part; two such, and the cutout may hold a neighbour. */
  largePart: 0.15,
  /** The mask fills more than this share of the photo: the backdrop, or a surface, likely came along. */
  largeShare: 0.6,
  /** The model's confidence in the outline below this: the same bar at which ml-cutout asks for a tap (its UNSURE). */
  lowScore: 0.6,
} as const;

/** Side of the copy of the mask the parts are counted on: parts are large ones, so detail is not needed. */
const PARTS_SIDE = 256;

/** Why the engine is unsure of a cutout's outline (none: it is sure). */
export function outlineDoubts(
  mask: ProductMask,
  found: { confidence: number; severalObjects: boolean },
): OutlineDoubt[] {
  const doubts: OutlineDoubt[] = [];
  if (edgeCut(mask) >= OUTLINE_THRESHOLDS.touchesFrame) doubts.push('touches_frame');
  if (largeParts(mask) > 1) doubts.push('several_parts');
  if (share(mask) > OUTLINE_THRESHOLDS.largeShare) doubts.push('large_share');
  if (found.confidence < OUTLINE_THRESHOLDS.lowScore) doubts.push('low_score');
  if (found.severalObjects) doubts.push('several_objects');
  return doubts;
}

function share({ data }: ProductMask): number {
  let on = 0;
  for (let p = 0; p < data.length; p++) on += data[p]!;
  return data.length ? on / data.length : 0;
}

/** How many 4-connected parts of the mask hold at least OUTLINE_THRESHOLDS.largePart of its area. */
export function largeParts({ data, width, height }: ProductMask): number {
  const labels = new Int32Array(data.length);
  const sizes: number[] = [];
  const stack: number[] = [];
  for (let start = 0; start < data.length; start++) {
    if (!data[start] || labels[start]) continue;
    sizes.push(0);
    const label = sizes.length;
    labels[start] = label;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      sizes[label - 1]!++;
      const x = p % width;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width]) {
        if (q < 0 || q >= width * height || !data[q] || labels[q]) continue;
        labels[q] = label;
        stack.push(q);
      }
    }
  }
  const total = sizes.reduce((a, b) => a + b, 0);
  return sizes.filter((size) => size >= OUTLINE_THRESHOLDS.largePart * total).length;
}

/**
 * The outline of a cutout (the product on transparent, as the engine stores it): a WebP preview at
 * most OUTLINE_PREVIEW_SIDE a side, and its alpha as a 0/1 mask small enough to count parts on.
 */
export async function outlineOf(cutoutPng: Buffer): Promise<{ preview: Buffer; mask: ProductMask }> {
  const image = sharp(cutoutPng).ensureAlpha();
  const [preview, alpha] = await Promise.all([
    image
      .clone()
      .resize(OUTLINE_PREVIEW_SIDE, OUTLINE_PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, alphaQuality: 90 })
      .toBuffer(),
    image
      .clone()
      .resize(PARTS_SIDE, PARTS_SIDE, { fit: 'inside', withoutEnlargement: true })
      .extractChannel(3)
      .raw()
      .toBuffer({ resolveWithObject: true }),
  ]);
  const mask = new Uint8Array(alpha.info.width * alpha.info.height);
  for (let p = 0; p < mask.length; p++) mask[p] = alpha.data[p]! >= 128 ? 1 : 0;
  return { preview, mask: { data: mask, width: alpha.info.width, height: alpha.info.height } };
}
