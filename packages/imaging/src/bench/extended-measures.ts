import { boundingBox, bytesFrom, dilate } from '../local/cutout/mask-ops.js';

/**
 * Measures the extended `real` categories need beyond IoU: which half of the set a photograph
 * belongs to, whether a product's thin parts survive, and whether a source shadow came along.
 * Masks here are 0..255 planes (≥ 128 = set) at the photo's size, as the truth and the cutout's alpha.
 */

export type Half = 'tuning' | 'holdout';

/**
 * The split, by photograph: a category's photographs sorted by file name, the 1st, 3rd, 5th… are
 * the tuning half and the 2nd, 4th… the hold-out half. It depends only on the names, so nothing
 * seen in the hold-out can move a photograph between halves, and every case of one photograph
 * lands in the same half.
 */
export function halfOf(photo: string, categoryPhotos: readonly string[]): Half {
  const sorted = [...new Set(categoryPhotos)].sort();
  const at = sorted.indexOf(photo);
  if (at < 0) throw new Error(`${photo} is not one of this category's photographs`);
  return at % 2 === 0 ? 'tuning' : 'holdout';
}

const set = (plane: Uint8Array) => bytesFrom(plane, (v) => (v >= 128 ? 1 : 0));

/** A part of a product: a box in fractions of the product's own bounding box (0 at its left and top edges). */
export interface PartBox {
  x: readonly [number, number];
  y: readonly [number, number];
}

/**
 * The product's named thin part (the bridge between two lenses, a mug's handle, a bag's strap), as
 * 0/1: the truth's pixels inside `part`, a box in fractions of the truth's bounding box. Named, not
 * found by an opening: at a photo's resolution an opening takes slivers off every curved edge, and
 * a bridge as wide as a tenth of a lens is not thin to it, so it would score edges, not the part.
 */
export function thinPartOf(truth: Uint8Array, width: number, height: number, part: PartBox): Uint8Array {
  const box = boundingBox(truth, width, height, 128);
  if (!box) return new Uint8Array(truth.length);
  const inside = (value: number, start: number, size: number, [from, to]: readonly [number, number]) => {
    const fraction = (value - start + 0.5) / size;
    return fraction >= from && fraction <= to;
  };
  return bytesFrom(truth, (v, p) => {
    const x = p % width;
    return v >= 128 && inside(x, box.x, box.width, part.x) && inside((p - x) / width, box.y, box.height, part.y) ? 1 : 0;
  });
}

/** Share of the thin-part pixels (0/1) that the cutout keeps (alpha ≥ 128); 1 when there are none. */
export function thinPartKept(thin: Uint8Array, cutoutAlpha: Uint8Array): number {
  let total = 0, kept = 0;
  for (let p = 0; p < thin.length; p++) {
    if (!thin[p]) continue;
    total++;
    if (cutoutAlpha[p]! >= 128) kept++;
  }
  return total ? kept / total : 1;
}

/** A thin part counts as present when the cutout keeps at least this share of its pixels. */
export const THIN_PART_PRESENT = 0.8;

/**
 * The source shadow: pixels the cast or contact shadow darkened by at least `minDarkening`
 * (0..1), outside the product and more than `edge` px from it, so the product's own anti-aliased
 * rim never counts as shadow. As 0/1.
 */
export function shadowPixels(darkening: Float32Array, truth: Uint8Array, width: number, height: number, minDarkening: number, edge: number): Uint8Array {
  const nearProduct = dilate(set(truth), width, height, edge);
  return bytesFrom(nearProduct, (near, p) => (!near && darkening[p]! >= minDarkening ? 1 : 0));
}

/** How many shadow pixels (0/1) the cutout kept as product (alpha ≥ 128). */
export function shadowInMask(shadow: Uint8Array, cutoutAlpha: Uint8Array): number {
  let count = 0;
  for (let p = 0; p < shadow.length; p++) if (shadow[p] && cutoutAlpha[p]! >= 128) count++;
  return count;
}
