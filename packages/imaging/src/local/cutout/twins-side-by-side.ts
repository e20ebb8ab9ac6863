import { boundingBox, connectedComponents, opening } from './mask-ops.js';
import type { Extent } from './twin-parts.js';

/** The smaller twin has at least this share of the larger's area. */
const TWIN_AREA = 0.7;
/** The twins share at least this share of the shorter one's rows. */
const SHARED_ROWS = 0.5;
/** A neck thinner than this share of the product's height joins twins: a sliver of a bridge the model drew. */
const NECK = 0.08;

/** Two lenses side by side in a 0/1 mask: its labels and the twins, as drawn or once a neck between them is cut. */
export function twinsIn(solid: Uint8Array, width: number, height: number): { labels: Int32Array; pair: Twins } | null {
  return twinsOf(solid, width, height) ?? twinsOf(withoutNecks(solid, width, height), width, height);
}

function twinsOf(solid: Uint8Array, width: number, height: number): { labels: Int32Array; pair: Twins } | null {
  const { labels, sizes } = connectedComponents(solid, width, height);
  const pair = twinsSideBySide(labels, sizes, width, height);
  return pair && { labels, pair };
}

/** The mask opened by a square of NECK / 2 of its height: a sliver of a bridge no longer joins the lenses. */
function withoutNecks(solid: Uint8Array, width: number, height: number): Uint8Array {
  const box = boundingBox(solid, width, height)!;
  const radius = Math.max(1, Math.round((NECK * box.height) / 2));
  return opening(solid, width, height, radius);
}

export interface Twins {
  left: Twin;
  right: Twin;
  /** The rows both share. */
  top: number;
  bottom: number;
  /** The shorter twin's height. */
  shortest: number;
}

/** The two largest components when they are alike in area and stand side by side, sharing rows. */
export function twinsSideBySide(labels: Int32Array, sizes: number[], width: number, height: number): Twins | null {
  if (sizes.length < 2) return null;
  const [first, second] = sizes.map((size, i) => [size, i + 1] as const).sort((x, y) => y[0] - x[0]);
  if (second![0] < TWIN_AREA * first![0]) return null;
  const twins = extents(labels, width, height, first![1], second![1]);
  const [left, right] = twins[0].minX <= twins[1].minX ? twins : [twins[1], twins[0]];
  const shortest = Math.min(left.maxY - left.minY, right.maxY - right.minY) + 1;
  const top = Math.max(left.minY, right.minY),
    bottom = Math.min(left.maxY, right.maxY);
  if (bottom - top + 1 < SHARED_ROWS * shortest || right.minX <= (left.minX + left.maxX) / 2) return null;
  return { left, right, top, bottom, shortest };
}

/** A twin: its component's label and box. */
export interface Twin extends Extent {
  label: number;
}

function extents(labels: Int32Array, width: number, height: number, a: number, b: number): [Twin, Twin] {
  const make = (label: number): Twin => ({ label, minX: width, minY: height, maxX: -1, maxY: -1 });
  const boxes = [make(a), make(b)] as const;
  for (let p = 0; p < labels.length; p++) {
    const box = labels[p] === a ? boxes[0] : labels[p] === b ? boxes[1] : null;
    if (!box) continue;
    const x = p % width,
      y = (p - x) / width;
    box.minX = Math.min(box.minX, x);
    box.maxX = Math.max(box.maxX, x);
    box.minY = Math.min(box.minY, y);
    box.maxY = Math.max(box.maxY, y);
  }
  return [boxes[0], boxes[1]];
}
