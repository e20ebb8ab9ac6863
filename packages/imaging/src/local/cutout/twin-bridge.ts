import type { RawImage } from '../../input/normalise-input.js';
import { FAINT, withFaintPart } from './faint-parts.js';
import { boundingBox, bytesFrom, connectedComponents, cropPlane, dilate, grow } from './mask-ops.js';
import type { Picked } from './picked-object.js';
import { twinsIn, twinsSideBySide, type Twins } from './twins-side-by-side.js';

/** Colours are read this far around the gap (share of the shorter twin's height). */
const READ_SPAN = 0.15;
/** Colour levels per channel of the histograms the gap's pixels are judged by. */
const LEVELS = 8;
/** A gap pixel is product when its colour is this many times likelier among the twins' rims than around the gap. */
const LIKELIER = 3;
/** A bridge filling more than this share of the gap is the background the twins stand on, not a part. */
const MAX_GAP_SHARE = 0.5;

/**
 * The model often traces a pale bridge between two lenses faintly: well under the 0.5 that makes
 * it product, well over the floor beside it. The faint pixels between the twins that join one to
 * the other are added to the chosen object (see withFaintPart). A faint haze filling the gap is
 * the floor, and adds nothing.
 */
export function bridgeFaintTwins(picked: Picked): Picked {
  const { map, members } = picked;
  const { width, height } = map;
  const { labels, sizes } = connectedComponents(members, width, height);
  const pair = twinsSideBySide(labels, sizes, width, height);
  if (!pair) return picked;
  const gap = gapBetween(labels, width, pair.left.label, pair.right.label, pair.top, pair.bottom);
  const faint = bytesFrom(gap, (inGap, p) => (inGap && map.mask[p]! >= FAINT ? 1 : 0));
  const bridge = joining(faint, { labels, width, height }, pair.left.label, pair.right.label);
  return fitsGap(bridge, gap) ? withFaintPart(picked, bridge) : picked;
}

/** A bridge is something in the gap, not the whole gap: the floor the twins stand on fills most of it. */
function fitsGap(bridge: Uint8Array, gap: Uint8Array): boolean {
  let gapArea = 0,
    bridgeArea = 0;
  for (let p = 0; p < bridge.length; p++) {
    gapArea += gap[p]!;
    bridgeArea += bridge[p]!;
  }
  return bridgeArea > 0 && bridgeArea <= MAX_GAP_SHARE * gapArea;
}

/**
 * A pair of lenses is drawn by the model as two twins side by side, without the thin bridge
 * between them when it is pale on a pale floor. Between the twins, the pixels of the colours
 * their own rims have, and not the floor around them, that join one twin to the other are the
 * bridge: added to the soft mask (0..255 at the photo's resolution) as product. Nothing joins two
 * shoes or earrings across the floor, so they gain nothing.
 */
export function bridgeTwins(image: RawImage, soft: Uint8Array): Uint8Array {
  const found = boundingBox(soft, image.width, image.height, 128);
  if (!found) return soft;
  // Only the product's box and the floor READ_SPAN around it are read: a fraction of a large photo.
  const box = grow(found, Math.ceil(READ_SPAN * found.height) + 1, image.width, image.height);
  const bridge = bridgeIn(
    cropPlane<Uint8Array>(image.data, image.width, box, 4),
    cropPlane(soft, image.width, box),
    box.width,
    box.height,
  );
  if (!bridge) return soft;
  const out = soft.slice();
  for (let p = 0; p < bridge.length; p++) {
    if (!bridge[p]) continue;
    const x = p % box.width;
    out[(box.y + (p - x) / box.width) * image.width + box.x + x] = 255;
  }
  return out;
}

/** The bridge's pixels (0/1) in a crop of the photo around the product, or null when there is none. */
function bridgeIn(rgba: Uint8Array, soft: Uint8Array, width: number, height: number): Uint8Array | null {
  const solid = bytesFrom(soft, (v) => (v >= 128 ? 1 : 0));
  const twins = twinsIn(solid, width, height);
  if (!twins) return null;
  const { labels, pair } = twins;
  const gap = gapBetween(labels, width, pair.left.label, pair.right.label, pair.top, pair.bottom);
  const gapBox = boundingBox(gap, width, height);
  if (!gapBox) return null;
  // The colours are read, and the bridge traced, in a window around the gap only.
  const reach = Math.max(2, Math.round(READ_SPAN * pair.shortest));
  const box = grow(gapBox, reach + 1, width, height);
  const local: Local = {
    rgba: cropPlane(rgba, width, box, 4),
    solid: cropPlane(solid, width, box),
    labels: cropPlane(labels, width, box),
    gap: cropPlane(gap, width, box),
    width: box.width,
    height: box.height,
  };
  const candidate = rimColoured(local, pair, reach);
  if (!candidate) return null;
  const bridge = joining(candidate, local, pair.left.label, pair.right.label);
  if (!fitsGap(bridge, local.gap)) return null;
  const whole = new Uint8Array(soft.length);
  for (let y = 0; y < box.height; y++)
    whole.set(bridge.subarray(y * box.width, (y + 1) * box.width), (box.y + y) * width + box.x);
  return whole;
}

/** The planes of a window of the crop: its colours, the twins' labels, the mask and the gap. */
interface Local {
  rgba: Uint8Array;
  solid: Uint8Array;
  labels: Int32Array;
  gap: Uint8Array;
  width: number;
  height: number;
}

/**
 * The gap's pixels whose colour is LIKELIER times likelier among the twins' pixels near the gap
 * (their rims) than among the floor's there; null when either cannot be read.
 */
function rimColoured({ rgba, solid, labels, gap, width, height }: Local, { left, right }: Twins, reach: number) {
  const near = dilate(gap, width, height, reach);
  const rims = new Uint32Array(LEVELS ** 3),
    floor = new Uint32Array(LEVELS ** 3);
  let rimCount = 0,
    floorCount = 0;
  for (let p = 0; p < gap.length; p++) {
    if (!near[p] || gap[p]) continue;
    if (labels[p] === left.label || labels[p] === right.label) {
      rims[bin(rgba, p)]!++;
      rimCount++;
    } else if (!solid[p]) {
      floor[bin(rgba, p)]!++;
      floorCount++;
    }
  }
  if (!rimCount || !floorCount) return null;
  const candidate = new Uint8Array(gap.length);
  for (let p = 0; p < gap.length; p++) {
    if (!gap[p]) continue;
    const b = bin(rgba, p);
    if (rims[b]! / rimCount > LIKELIER * ((floor[b]! + 0.5) / floorCount)) candidate[p] = 1;
  }
  return candidate;
}

/** On each shared row, the pixels between the left twin's rightmost pixel and the right twin's leftmost one. */
function gapBetween(labels: Int32Array, width: number, left: number, right: number, top: number, bottom: number) {
  const gap = new Uint8Array(labels.length);
  for (let y = top; y <= bottom; y++) {
    const row = y * width;
    let end = -1,
      start = -1;
    for (let x = 0; x < width; x++) if (labels[row + x] === left) end = x;
    for (let x = width - 1; x >= 0; x--) if (labels[row + x] === right) start = x;
    if (end < 0 || start < 0 || start <= end + 1) continue;
    for (let x = end + 1; x < start; x++) if (!labels[row + x]) gap[row + x] = 1;
  }
  return gap;
}

/** The candidate pixels' 4-connected parts that touch both twins. */
function joining(
  candidate: Uint8Array,
  { labels, width, height }: Pick<Local, 'labels' | 'width' | 'height'>,
  a: number,
  b: number,
): Uint8Array {
  const parts = connectedComponents(candidate, width, height);
  const touchesA = new Uint8Array(parts.sizes.length + 1),
    touchesB = new Uint8Array(parts.sizes.length + 1);
  const touch = (part: number, q: number) => {
    if (labels[q] === a) touchesA[part] = 1;
    else if (labels[q] === b) touchesB[part] = 1;
  };
  for (let p = 0; p < candidate.length; p++) {
    const part = parts.labels[p]!;
    if (!part) continue;
    const x = p % width;
    if (x > 0) touch(part, p - 1);
    if (x < width - 1) touch(part, p + 1);
    if (p >= width) touch(part, p - width);
    if (p + width < candidate.length) touch(part, p + width);
  }
  const bridge = new Uint8Array(candidate.length);
  for (let p = 0; p < bridge.length; p++) {
    const part = parts.labels[p]!;
    if (part && touchesA[part] && touchesB[part]) bridge[p] = 1;
  }
  return bridge;
}

function bin(rgba: Uint8Array, p: number): number {
  const level = (v: number) => (v * LEVELS) >> 8;
  return (level(rgba[p * 4]!) * LEVELS + level(rgba[p * 4 + 1]!)) * LEVELS + level(rgba[p * 4 + 2]!);
}
