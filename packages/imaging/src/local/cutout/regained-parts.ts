import type { RawImage } from '../../input/normalise-input.js';
import type { Point } from '../../types.js';
import { RIM, SOLID, underFinger } from './honour-taps.js';
import { bytesFrom, connectedComponents, dilate, type Components } from './mask-ops.js';

/** Share of a regained part's edge that must lie open (on the photo's background), not along the rim. */
const OPEN_EDGE = 0.3;

/**
 * The product a window drew (`picked`) with what it left out of the product regained from the
 * object the whole photo's run drew under the keep tap (`fused`): the product fused with what the
 * drop taps remove. Clear of the window's object and its soft rim, `fused` falls into parts: those
 * a drop tap is on (or a finger from) are what the seller removed; the others that touch the rim
 * and lie mostly open are the product's own (a bottle's top the window lost) and are added.
 */
export function regainedFromFused(
  image: RawImage,
  picked: Uint8Array,
  fused: Uint8Array,
  drops: readonly Point[],
): Uint8Array {
  const { width, height } = image;
  const rim = Math.max(1, Math.round(RIM * Math.min(width, height)));
  const near = dilate(
    bytesFrom(picked, (v) => (v >= SOLID ? 1 : 0)),
    width,
    height,
    rim,
  );
  const rest = bytesFrom(fused, (v, p) => (v >= SOLID && !near[p] ? 1 : 0));
  const parts = connectedComponents(rest, width, height);
  const dropped = partsUnder(parts, drops, image);
  if (dropped.size === 0 || dropped.size === parts.sizes.length) return picked;
  const kept = openParts(parts, dropped, near, openBackground(fused, near, width, height), width);
  if (!kept.size) return picked;
  // The parts and the stretch of the rim between them and the window's object.
  const regained = dilate(
    bytesFrom(parts.labels, (label) => (kept.has(label) ? 1 : 0)),
    width,
    height,
    rim,
  );
  return picked.map((value, p) => (regained[p] && (near[p] || rest[p]) ? Math.max(value, fused[p]!) : value));
}

/** The labels of the parts a tap is on or a finger's width from. */
function partsUnder({ labels }: Components, taps: readonly Point[], image: RawImage): Set<number> {
  const under = new Set<number>();
  for (const tap of taps) for (const p of underFinger(tap, image)) if (labels[p]) under.add(labels[p]!);
  return under;
}

/**
 * The labels of the parts, less `dropped`, that touch the rim (`near`) and lie open: at least
 * OPEN_EDGE of their edge on the photo's background. A part the window's object closes round (the
 * neighbour seen through a mug's handle) is a hole of the product, not a part of it.
 */
function openParts(
  { labels }: Components,
  dropped: Set<number>,
  near: Uint8Array,
  background: Uint8Array,
  width: number,
): Set<number> {
  const touchesRim = new Set<number>(),
    edges = new Map<number, { open: number; all: number }>();
  for (let p = 0; p < labels.length; p++) {
    const label = labels[p]!;
    if (!label || dropped.has(label)) continue;
    const x = p % width;
    let open = false,
      onEdge = false;
    for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width]) {
      if (q < 0 || q >= labels.length || labels[q] === label) continue;
      onEdge = true;
      if (near[q]) touchesRim.add(label);
      else if (background[q]) open = true;
    }
    if (!onEdge) continue;
    const edge = edges.get(label) ?? { open: 0, all: 0 };
    edge.all++;
    if (open) edge.open++;
    edges.set(label, edge);
  }
  return new Set(
    [...touchesRim].filter((label) => {
      const edge = edges.get(label)!;
      return edge.open >= OPEN_EDGE * edge.all;
    }),
  );
}

/** The pixels outside `fused` and `near` joined to the photo's border: the background around an object, not its holes. */
function openBackground(fused: Uint8Array, near: Uint8Array, width: number, height: number): Uint8Array {
  const outside = bytesFrom(fused, (v, p) => (v < SOLID && !near[p] ? 1 : 0));
  const { labels } = connectedComponents(outside, width, height);
  const open = new Set<number>();
  for (let x = 0; x < width; x++) open.add(labels[x]!).add(labels[(height - 1) * width + x]!);
  for (let y = 0; y < height; y++) open.add(labels[y * width]!).add(labels[y * width + width - 1]!);
  open.delete(0);
  return bytesFrom(labels, (label) => (open.has(label) ? 1 : 0));
}
