/** A component's box in mask pixels, inclusive. */
export interface Extent {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Twins are alike in area and in box this closely… */
const TWIN_SIZE_RATIO = 0.7;
/** …their outlines overlap this much once laid on each other (mirrored or not)… */
const TWIN_SHAPE_LIKENESS = 0.75;
/** …and they stand side by side (or one above the other) at most this share of their width (height) apart. */
const TWIN_GAP = 0.5;
/** The outlines are compared on a grid of this many cells a side. */
const TWIN_GRID = 32;

/**
 * Whether two components of a labelled mask are one product's twin parts: the same outline, or
 * mirror images, alike in size and side by side (a pair of lenses, of earrings, of shoes). The
 * model often leaves a pair of lenses apart, farther than the gap that joins a product's parts,
 * because the bridge between them is too thin for it to see.
 */
export function twinParts(
  labels: Int32Array,
  width: number,
  [a, sa]: readonly [number, Extent],
  [b, sb]: readonly [number, Extent],
  sizes: readonly number[],
): boolean {
  const [areaA, areaB] = [sizes[a - 1]!, sizes[b - 1]!];
  if (Math.min(areaA, areaB) < TWIN_SIZE_RATIO * Math.max(areaA, areaB)) return false;
  const [wa, ha, wb, hb] = [sa.maxX - sa.minX + 1, sa.maxY - sa.minY + 1, sb.maxX - sb.minX + 1, sb.maxY - sb.minY + 1];
  if (Math.min(wa, wb) < TWIN_SIZE_RATIO * Math.max(wa, wb) || Math.min(ha, hb) < TWIN_SIZE_RATIO * Math.max(ha, hb))
    return false;
  const gapX = Math.max(sa.minX, sb.minX) - Math.min(sa.maxX, sb.maxX) - 1,
    gapY = Math.max(sa.minY, sb.minY) - Math.min(sa.maxY, sb.maxY) - 1;
  const sideBySide = gapX <= TWIN_GAP * Math.min(wa, wb) && -gapY >= 0.5 * Math.min(ha, hb);
  const stacked = gapY <= TWIN_GAP * Math.min(ha, hb) && -gapX >= 0.5 * Math.min(wa, wb);
  if (!sideBySide && !stacked) return false;
  const alike = (mirror: boolean) => outlineLikeness(labels, width, [a, sa], [b, sb], mirror);
  return Math.max(alike(false), alike(true)) >= TWIN_SHAPE_LIKENESS;
}

/** IoU of two components' outlines, each stretched over its own box (the second mirrored left to right when asked). */
function outlineLikeness(
  labels: Int32Array,
  width: number,
  [a, sa]: readonly [number, Extent],
  [b, sb]: readonly [number, Extent],
  mirror: boolean,
): number {
  let both = 0,
    either = 0;
  for (let gy = 0; gy < TWIN_GRID; gy++) {
    for (let gx = 0; gx < TWIN_GRID; gx++) {
      const fx = (gx + 0.5) / TWIN_GRID,
        fy = (gy + 0.5) / TWIN_GRID;
      const inA = labels[cell(sa, fx, fy, width)] === a;
      const inB = labels[cell(sb, mirror ? 1 - fx : fx, fy, width)] === b;
      if (inA && inB) both++;
      if (inA || inB) either++;
    }
  }
  return either ? both / either : 0;
}

/** The mask pixel at fractions (fx, fy) of a box. */
function cell(extent: Extent, fx: number, fy: number, width: number): number {
  const x = Math.floor(extent.minX + fx * (extent.maxX - extent.minX + 1)),
    y = Math.floor(extent.minY + fy * (extent.maxY - extent.minY + 1));
  return y * width + x;
}
