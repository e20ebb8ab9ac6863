import { coachWarning, FRAME_EDGES, type CoachWarning, type FrameEdge, type ProductKind } from '@prodshot/contracts';
import type { PhotoStats } from './read-photo.js';
import { COACH_THRESHOLDS as T } from './thresholds.js';

/** The long side (px) a product needs in the photo for the plan's shots not to upscale it visibly. */
export function minProductSide(shotSize: number): number {
  return Math.round(shotSize * T.productSideShare);
}

/**
 * The warnings the upload's pixels alone give: blur, exposure, and size when even the whole photo
 * is smaller than the product needs to be (the product checks judge the product's own size).
 */
export function pixelWarnings(stats: PhotoStats, shotSize: number, kind: ProductKind = 'unknown'): CoachWarning[] {
  const warnings: CoachWarning[] = [];
  const dark = stats.high < T.darkHigh;
  // A dark photo's edges are dim too: light comes first, and blur is judged on the next photo.
  if (!dark && stats.sharpness < T.blurSharpness) warnings.push(coachWarning('blurry', kind));
  if (Math.max(stats.width, stats.height) < minProductSide(shotSize))
    warnings.push(coachWarning('low_resolution', kind));
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
  /** The photo's width in pixels (the mask is the photo's shape, maybe smaller): sizes the product in the photo's pixels. */
  photoWidth: number;
  /** How many objects could be the product (the tap step's candidates). */
  candidates: number;
  needsFocus: boolean;
}

/** The product's bounds in mask pixels, or null for an empty mask. */
function bounds({
  data,
  width,
  height,
}: ProductMask): { minX: number; maxX: number; minY: number; maxY: number } | null {
  let minX = width,
    maxX = -1,
    minY = height,
    maxY = -1;
  for (let p = 0; p < data.length; p++) {
    if (!data[p]) continue;
    const x = p % width,
      y = (p - x) / width;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  return maxX < 0 ? null : { minX, maxX, minY, maxY };
}

/**
 * How far the product runs along each frame edge, as a share of the product's extent that way: a
 * shoe standing on the bottom edge touches it at a heel, a cut shoe along its whole side.
 */
export function edgeRuns(mask: ProductMask): Record<FrameEdge, number> {
  const box = bounds(mask);
  if (!box) return { top: 0, bottom: 0, left: 0, right: 0 };
  const { data, width, height } = mask;
  const count = (from: number, step: number, n: number) => {
    let on = 0;
    for (let i = 0; i < n; i++) on += data[from + i * step]!;
    return on;
  };
  const across = box.maxX - box.minX + 1,
    down = box.maxY - box.minY + 1;
  return {
    top: count(0, 1, width) / across,
    bottom: count((height - 1) * width, 1, width) / across,
    left: count(0, width, height) / down,
    right: count(width - 1, width, height) / down,
  };
}

/** The longest run of the product along any frame edge (see edgeRuns). */
export function edgeCut(mask: ProductMask): number {
  return Math.max(...Object.values(edgeRuns(mask)));
}

/** The frame edges that cut the product off. */
export function cutEdges(mask: ProductMask): FrameEdge[] {
  const runs = edgeRuns(mask);
  return FRAME_EDGES.filter((edge) => runs[edge] >= T.cutOffRun);
}

/** Long side of the product's bounds as a share of the photo's short side. */
export function productScale(mask: ProductMask): number {
  const box = bounds(mask);
  if (!box) return 0;
  return Math.max(box.maxX - box.minX + 1, box.maxY - box.minY + 1) / Math.min(mask.width, mask.height);
}

/** Long side of the product's bounds in the photo's pixels. */
export function productSide(mask: ProductMask, photoWidth: number): number {
  const box = bounds(mask);
  if (!box) return 0;
  return (Math.max(box.maxX - box.minX + 1, box.maxY - box.minY + 1) * photoWidth) / mask.width;
}

/** The warnings the product's mask gives: cut off (and where), too small, too few pixels for the plan's shots, competing objects. */
export function productWarnings(shape: ProductShape, shotSize: number, kind: ProductKind = 'unknown'): CoachWarning[] {
  // Unsure which object is the product, the engine's mask may be a chair or a boat: only the busy
  // background is certain then, and the tap step asks the seller which one they mean.
  if (shape.needsFocus) return [coachWarning('busy_background', kind)];
  const warnings: CoachWarning[] = [];
  const cut = cutEdges(shape.mask);
  if (cut.length) warnings.push(coachWarning('product_cut_off', kind, cut));
  else if (productScale(shape.mask) < T.smallProduct) warnings.push(coachWarning('product_too_small', kind));
  if (productSide(shape.mask, shape.photoWidth) < minProductSide(shotSize))
    warnings.push(coachWarning('low_resolution', kind));
  if (shape.candidates > 1) warnings.push(coachWarning('busy_background', kind));
  return warnings;
}
