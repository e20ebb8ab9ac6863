import type { Box } from '../../types.js';
import { boundingBox, connectedComponents, cropPlane, dilate, fillHoles, grow, maxFilter } from './mask-ops.js';
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
/** A part closes a loop with the object when the hole it closes is at least this share of its area. */
const MIN_HOLE = 0.3;
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
  const peak = maxFilter(
    Float32Array.from(map.mask, (v, p) => (part[p] ? v : 0)),
    width,
    height,
    reach,
  );
  const mask = map.mask.slice();
  for (let p = 0; p < part.length; p++)
    if (part[p]) mask[p] = Math.max(mask[p]!, Math.min(1, (2 * mask[p]!) / peak[p]!));
  return { ...picked, map: { ...map, mask }, members: members.map((member, p) => member | part[p]!) };
}

/**
 * A handle or a strap the model traced only faintly (a dark strap on dark pebbles, a tote's
 * handle on busy tiles) is a faint arc that closes a loop with the object: the hole it closes is
 * background, and the arc is product. A cast shadow or the object's own soft rim closes no loop,
 * so neither is added.
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
function loopsIn(mask: Float32Array, members: Uint8Array, { width, height }: Box, rimWidth: number): Uint8Array | null {
  const rim = dilate(members, width, height, rimWidth);
  const beyond = Uint8Array.from(mask, (v, p) => (!rim[p] && v >= FAINTEST ? 1 : 0));
  const { labels, sizes } = connectedComponents(beyond, width, height);
  const traced = new Uint8Array(sizes.length + 1);
  for (let p = 0; p < mask.length; p++) if (labels[p] && mask[p]! >= FAINT) traced[labels[p]!] = 1;
  const rimHoles = fillHoles(rim, width, height);
  const loops = new Uint8Array(mask.length);
  let found = false;
  sizes.forEach((size, index) => {
    const label = index + 1;
    if (size < MIN_PART || !traced[label]) return;
    const arc = dilate(
      Uint8Array.from(labels, (l) => (l === label ? 1 : 0)),
      width,
      height,
      SHORT_BY,
    );
    const closed = Uint8Array.from(rim, (r, p) => r | arc[p]!);
    const filled = fillHoles(closed, width, height);
    let hole = 0;
    for (let p = 0; p < filled.length; p++) if (filled[p] && !closed[p] && !rimHoles[p]) hole++;
    if (hole < MIN_HOLE * size) return;
    found = true;
    for (let p = 0; p < arc.length; p++) if (arc[p]) loops[p] = 1;
  });
  if (!found) return null;
  // The arc reaches the object through its rim: the faint pixels there join them.
  const joined = dilate(loops, width, height, rimWidth);
  return Uint8Array.from(joined, (j, p) => (j && !members[p] && mask[p]! >= FAINTEST ? 1 : 0));
}
