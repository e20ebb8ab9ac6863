import type { Box } from '../../types.js';
import { boundingBox, connectedComponents, cropPlane, dilate, fillHoles, grow } from './mask-ops.js';
import type { Picked } from './picked-object.js';

/** Where the model's mask is at least this beside the object, it traced something there, faintly. */
export const FAINT = 0.03;
/** A faint trace may fade to this along its length (the far side of a strap) and still be one part. */
const FAINTEST = 0.01;
/** The object's own soft rim: this share of the map's side around its pixels is its edge, not a part. */
const RIM = 0.004;
/** A faint part may fall short of the rim by this much (map pixels) and still hang from it. */
const SHORT_BY = 3;
/** Faint parts are looked for within this share of the object's longer side around it. */
const REACH = 0.3;
/** Parts under this many map pixels are specks. */
const MIN_PART = 20;
/** A handle is small beside the object: a faint part over this share of the object's area is something else. */
const MAX_PART = 0.25;
/** A part's loop is looked for this share of its size around it. */
const LOOP_MARGIN = 0.25;
/** A part closes a loop with the object when the hole it closes is at least this share of its area… */
const MIN_HOLE = 0.3;
/** …and a handle's loop is smaller than the object: a larger one is a tile the grout around it closes. */
const MAX_HOLE = 0.5;
/** A faint part's own brightest value is read this far around each of its pixels (share of the map's side). */
const PEAK_REACH = 0.005;

/**
 * The chosen object with a faint part added: each of the part's pixels scaled by the part's own
 * brightest value nearby, so the part's edge lies at half its own height, as the object's does at
 * 0.5. The photo's map itself is left as it was: the other objects are judged on it.
 */
export function withFaintPart(picked: Picked, part: Uint8Array): Picked {
  const { map, members } = picked;
  const { width, height } = map;
  const reach = Math.max(1, Math.round(PEAK_REACH * Math.min(width, height)));
  const values = new Float32Array(part.length);
  for (let p = 0; p < part.length; p++) if (part[p]) values[p] = map.mask[p]!;
  const peak = maxFilter(values, width, height, reach);
  const mask = map.mask.slice(),
    joined = members.slice();
  for (let p = 0; p < part.length; p++) {
    if (!part[p]) continue;
    mask[p] = Math.max(mask[p]!, Math.min(1, (2 * mask[p]!) / peak[p]!));
    joined[p] = 1;
  }
  return { ...picked, map: { ...map, mask }, members: joined };
}

/**
 * A handle or a strap the model traced only faintly (a tote's handle on blue tiles, fading to
 * almost nothing along one side) is a faint arc that closes a loop with the object: the hole it closes is
 * background, and the arc is product. A cast shadow or the object's own soft rim closes no loop,
 * so neither is added; nor is grout that closes a tile larger than the object.
 */
export function keepFaintLoops(picked: Picked): Picked {
  const { map, members } = picked;
  const found = boundingBox(members, map.width, map.height);
  if (!found) return picked;
  const rimWidth = Math.max(2, Math.round(RIM * Math.min(map.width, map.height)));
  const box = grow(
    found,
    Math.round(REACH * Math.max(found.width, found.height)) + rimWidth + SHORT_BY + 1,
    map.width,
    map.height,
  );
  const loops = loopsIn(cropPlane(map.mask, map.width, box), cropPlane(members, map.width, box), box, rimWidth);
  if (!loops) return picked;
  const part = new Uint8Array(members.length);
  for (let y = 0; y < box.height; y++)
    part.set(loops.subarray(y * box.width, (y + 1) * box.width), (box.y + y) * map.width + box.x);
  return withFaintPart(picked, part);
}

/** In a crop around the object: the faint pixels of the loops it closes (0/1), or null when none. */
function loopsIn(mask: Float32Array, members: Uint8Array, crop: Box, rimWidth: number): Uint8Array | null {
  const { width, height } = crop;
  const rim = dilate(members, width, height, rimWidth);
  const beyond = new Uint8Array(mask.length);
  for (let p = 0; p < mask.length; p++) beyond[p] = !rim[p] && mask[p]! >= FAINTEST ? 1 : 0;
  const { labels, sizes } = connectedComponents(beyond, width, height);
  const parts = faintParts(mask, labels, sizes, dilate(rim, width, height, SHORT_BY), width);
  const rimHoles = fillHoles(rim, width, height);
  let objectArea = 0;
  for (let p = 0; p < members.length; p++) objectArea += members[p]!;
  const loops = new Uint8Array(mask.length);
  let found = false;
  for (const part of parts) {
    if (part.size < MIN_PART || part.size > MAX_PART * objectArea || !part.traced || !part.hangs) continue;
    // Judged in a window around the part: the loop it closes with the rim lies within it.
    const margin = SHORT_BY + 1 + Math.round(LOOP_MARGIN * Math.max(part.box.width, part.box.height));
    const box = grow(part.box, margin, width, height);
    const labelsThere = cropPlane(labels, width, box);
    const own = new Uint8Array(labelsThere.length);
    for (let p = 0; p < own.length; p++) own[p] = labelsThere[p] === part.label ? 1 : 0;
    const arc = dilate(own, box.width, box.height, SHORT_BY);
    const rimThere = cropPlane(rim, width, box),
      rimHolesThere = cropPlane(rimHoles, width, box);
    const closed = new Uint8Array(arc.length);
    for (let p = 0; p < closed.length; p++) closed[p] = arc[p]! | rimThere[p]!;
    const filled = fillHoles(closed, box.width, box.height);
    let hole = 0;
    for (let p = 0; p < filled.length; p++) if (filled[p] && !closed[p] && !rimHolesThere[p]) hole++;
    if (hole < MIN_HOLE * part.size || hole > MAX_HOLE * objectArea) continue;
    found = true;
    for (let y = 0; y < box.height; y++)
      for (let x = 0; x < box.width; x++) if (arc[y * box.width + x]) loops[(box.y + y) * width + box.x + x] = 1;
  }
  if (!found) return null;
  // The arc reaches the object through its rim: the faint pixels there join them.
  const joined = dilate(loops, width, height, rimWidth);
  for (let p = 0; p < joined.length; p++) joined[p] = joined[p] && !members[p] && mask[p]! >= FAINTEST ? 1 : 0;
  return joined;
}

interface FaintPart {
  label: number;
  size: number;
  box: Box;
  /** The model traced it at FAINT somewhere, not only at FAINTEST. */
  traced: boolean;
  /** It comes within SHORT_BY of the object's rim. */
  hangs: boolean;
}

/** Each faint component's box, and whether it is traced and hangs from the rim, in one pass. */
function faintParts(
  mask: Float32Array,
  labels: Int32Array,
  sizes: number[],
  reachable: Uint8Array,
  width: number,
): FaintPart[] {
  const parts: FaintPart[] = sizes.map((size, index) => ({
    label: index + 1,
    size,
    box: { x: width, y: Number.MAX_SAFE_INTEGER, width: 0, height: 0 },
    traced: false,
    hangs: false,
  }));
  const right = new Int32Array(sizes.length).fill(-1),
    bottom = new Int32Array(sizes.length).fill(-1);
  for (let p = 0; p < labels.length; p++) {
    const label = labels[p]!;
    if (!label) continue;
    const part = parts[label - 1]!;
    const x = p % width,
      y = (p - x) / width;
    part.box.x = Math.min(part.box.x, x);
    part.box.y = Math.min(part.box.y, y);
    right[label - 1] = Math.max(right[label - 1]!, x);
    bottom[label - 1] = Math.max(bottom[label - 1]!, y);
    if (mask[p]! >= FAINT) part.traced = true;
    if (reachable[p]) part.hangs = true;
  }
  parts.forEach((part, i) => {
    part.box.width = right[i]! - part.box.x + 1;
    part.box.height = bottom[i]! - part.box.y + 1;
  });
  return parts;
}

/** The largest value within a square of the given radius around each pixel (grey-level dilation). */
function maxFilter(values: Float32Array, width: number, height: number, radius: number): Float32Array {
  const rows = new Float32Array(values.length),
    out = new Float32Array(values.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let most = 0;
      for (let k = Math.max(0, x - radius); k <= Math.min(width - 1, x + radius); k++)
        most = Math.max(most, values[y * width + k]!);
      rows[y * width + x] = most;
    }
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let most = 0;
      for (let k = Math.max(0, y - radius); k <= Math.min(height - 1, y + radius); k++)
        most = Math.max(most, rows[k * width + x]!);
      out[y * width + x] = most;
    }
  return out;
}
