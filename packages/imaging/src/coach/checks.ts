import { coachWarning, type CoachWarning, type ProductKind } from '@prodshot/contracts';
import type { PhotoStats } from './read-photo.js';
import { COACH_THRESHOLDS as T } from './thresholds.js';

/** The warnings the upload's pixels alone give: blur, size for the plan's shots, exposure. */
export function pixelWarnings(stats: PhotoStats, shotSize: number, kind: ProductKind = 'unknown'): CoachWarning[] {
  const warnings: CoachWarning[] = [];
  const dark = stats.high < T.darkHigh;
  // A dark photo's edges are dim too: light comes first, and blur is judged on the next photo.
  if (!dark && stats.sharpness < T.blurSharpness) warnings.push(coachWarning('blurry', kind));
  if (Math.max(stats.width, stats.height) < shotSize * T.resolutionShare) warnings.push(coachWarning('low_resolution', kind));
  if (dark) warnings.push(coachWarning('too_dark', kind));
  else if (stats.clipped >= T.brightClipped) warnings.push(coachWarning('too_bright', kind));
  return warnings;
}

/** A binary product mask (1 = product), row-major. */
export interface ProductMask {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface ProductShape {
  mask: ProductMask;
  /** How many objects could be the product (the tap step's candidates). */
  candidates: number;
  needsFocus: boolean;
}

/** The product's bounds in mask pixels, or null for an empty mask. */
function bounds({ data, width, height }: ProductMask): { minX: number; maxX: number; minY: number; maxY: number } | null {
  let minX = width, maxX = -1, minY = height, maxY = -1;
  for (let p = 0; p < data.length; p++) {
    if (!data[p]) continue;
    const x = p % width, y = (p - x) / width;
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  return maxX < 0 ? null : { minX, maxX, minY, maxY };
}

/**
 * The longest stretch of a frame edge the product runs along, as a share of the product's extent
 * that way: a shoe standing on the bottom edge touches it at a heel, a cut shoe along its whole side.
 */
export function edgeCut(mask: ProductMask): number {
  const box = bounds(mask);
  if (!box) return 0;
  const { data, width, height } = mask;
  const count = (from: number, step: number, n: number) => {
    let on = 0;
    for (let i = 0; i < n; i++) on += data[from + i * step]!;
    return on;
  };
  const across = box.maxX - box.minX + 1, down = box.maxY - box.minY + 1;
  return Math.max(count(0, 1, width) / across, count((height - 1) * width, 1, width) / across, count(0, width, height) / down, count(width - 1, width, height) / down);
}

/** Long side of the product's bounds as a share of the photo's short side. */
export function productScale(mask: ProductMask): number {
  const box = bounds(mask);
  if (!box) return 0;
  return Math.max(box.maxX - box.minX + 1, box.maxY - box.minY + 1) / Math.min(mask.width, mask.height);
}

/** The warnings the product's mask gives: cut off, too small, competing objects. */
export function productWarnings(shape: ProductShape, kind: ProductKind = 'unknown'): CoachWarning[] {
  // Unsure which object is the product, the engine's mask may be a chair or a boat: only the busy
  // background is certain then, and the tap step asks the seller which one they mean.
  if (shape.needsFocus) return [coachWarning('busy_background', kind)];
  const warnings: CoachWarning[] = [];
  if (edgeCut(shape.mask) >= T.cutOffRun) warnings.push(coachWarning('product_cut_off', kind));
  else if (productScale(shape.mask) < T.smallProduct) warnings.push(coachWarning('product_too_small', kind));
  if (shape.candidates > 1) warnings.push(coachWarning('busy_background', kind));
  return warnings;
}
