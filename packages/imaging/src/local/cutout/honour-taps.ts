// Over 250 lines: the two ways a tap changes the mask (a drop split, a missed part grown) share the grid, the
// pixel mapping and the finger-sized constants.
import sharp from 'sharp';
import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box, Point } from '../../types.js';
import { castShadowPixels } from './cast-shadow.js';
import { geodesicSplit, type SplitGrid } from './geodesic-split.js';
import { boundingBox, bytesFrom, clamp, dilate, erode, grow } from './mask-ops.js';

/** The split runs on at most this many pixels of the object's box: a 1024 px photo's object at its own resolution. */
const SPLIT_PIXELS = 400_000;
/** A keep tap this close to the object (share of the photo's short side, a finger's width) is on it. */
export const FINGER = 0.04;
/**
 * A keep tap holds the object's pixels this close to it (share of the photo's short side): a
 * fingertip's pad, so a tap on a printed letter still holds the product around it.
 */
const PAD = 0.04;
/** The colours of each side are learnt this close to its taps (share of the photo's short side). */
const SAMPLE = 0.03;
/** The soft rim the model leaves around an object, as a share of the photo's short side: it goes with a dropped object. */
export const RIM = 0.012;
/** A missed part is grown on the photo at most this size a side. */
const GROW_SIDE = 640;
/** A missed part must stand out from what surrounds the tap by this much (RGB distance) to be told apart at all. */
const GROW_CONTRAST = 30;
/** A grown part larger than this share of the photo, or reaching its border, is the background, not a part. */
const GROW_MAX_SHARE = 0.1;
/** Rings around a tap (grid pixels, inner and outer Chebyshev radius) where its surroundings are read. */
const RINGS = [
  [6, 12],
  [12, 24],
  [24, 48],
] as const;

export const SOLID = 128;

/** A tap as a pixel of the photo. */
export function pixelOf(tap: Point, image: { width: number; height: number }): { x: number; y: number } {
  return {
    x: clamp(Math.floor(tap.x * image.width), 0, image.width - 1),
    y: clamp(Math.floor(tap.y * image.height), 0, image.height - 1),
  };
}

/** The photo's pixels (indices) within a finger's width (FINGER of the short side) of a tap. */
export function underFinger(tap: Point, image: { width: number; height: number }): number[] {
  const reach = Math.round(FINGER * Math.min(image.width, image.height));
  const { x: cx, y: cy } = pixelOf(tap, image);
  const pixels: number[] = [];
  for (let y = Math.max(0, cy - reach); y <= Math.min(image.height - 1, cy + reach); y++)
    for (let x = Math.max(0, cx - reach); x <= Math.min(image.width - 1, cx + reach); x++)
      if ((x - cx) ** 2 + (y - cy) ** 2 <= reach * reach) pixels.push(y * image.width + x);
  return pixels;
}

/**
 * The object's soft mask (0..255 at the photo's resolution) less what the drop taps claim: the
 * object is split between the keep taps and the drop taps by a geodesic competition over its
 * pixels (see geodesicSplit), and the drop taps' side goes with its soft rim. The competition
 * also runs over `dropObjects`, the objects the model drew under the drop taps (0/1), so a drop tap
 * reaches the part of its object that came along even from outside the cutout. A drop tap on
 * nothing (the background, a hole the model left open) claims nothing. Without a keep tap on the
 * object, its surest pixel farthest from every drop tap (a shadow on the floor excepted) holds the
 * seller's side.
 */
export async function dropTapped(
  image: RawImage,
  soft: Uint8Array,
  keeps: readonly Point[],
  drops: readonly Point[],
  dropObjects: Uint8Array,
): Promise<Uint8Array> {
  const either = bytesFrom(soft, (v, p) => (v >= SOLID || dropObjects[p] ? 1 : 0));
  const found = boundingBox(either, image.width, image.height);
  if (!found) return soft;
  const box = grow(found, 2, image.width, image.height);
  // The dropped objects count as sure: the cutout's own soft mask ends where a closer look cut it, not where they do.
  const grid = await gridOf(
    image,
    bytesFrom(soft, (v, p) => (dropObjects[p] ? 255 : v)),
    box,
  );
  const { width, height } = grid;
  const region = new Uint8Array(width * height),
    product = new Uint8Array(width * height);
  forEachPhotoPixel(box, width, height, image.width, (o, w) => {
    if (either[o]) region[w] = 1;
    if (soft[o]! >= SOLID) product[w] = 1;
  });
  const at = (tap: Point) => gridPixel(tap, image, box, grid);
  const dropSeeds = drops.map(at).filter((p) => p >= 0 && region[p]);
  if (!dropSeeds.length) return soft;
  const reach = (FINGER * Math.min(image.width, image.height) * width) / box.width;
  const pad = Math.max(1, Math.round((PAD * Math.min(image.width, image.height) * width) / box.width));
  const sample = Math.max(pad, Math.round((SAMPLE * Math.min(image.width, image.height) * width) / box.width));
  let keepCentres = keeps.flatMap((tap) => nearestIn(product, width, at(tap), reach));
  if (!keepCentres.length) keepCentres = farthestSure(grid, product, dropSeeds, castShadowPixels(grid, product));
  const keepSeeds = padOf(product, width, keepCentres, pad);
  const samples = { keep: padOf(product, width, keepCentres, sample), drop: padOf(region, width, dropSeeds, sample) };
  const claimed = geodesicSplit(grid, region, keepSeeds, dropSeeds, samples);
  const rim = dilate(
    claimed,
    width,
    height,
    Math.max(1, Math.round((RIM * Math.min(image.width, image.height) * width) / box.width)),
  );
  const out = soft.slice();
  forEachPhotoPixel(box, width, height, image.width, (o, w) => {
    if (claimed[w] || (rim[w] && out[o]! < SOLID)) out[o] = 0;
  });
  if (!boundingBox(out, image.width, image.height, SOLID))
    throw new EmptyImageError('nothing is left once the parts you removed are taken out');
  return out;
}

/**
 * Adds the part under a keep tap the model missed (a strap, a handle): the pixels around the
 * tap of its colour, connected to it, when they stand out from their surroundings and make a
 * part of the product, not the background: they stay off the photo's border, are small, and
 * touch the product. Null when they do not.
 */
export async function missedPart(image: RawImage, soft: Uint8Array, tap: Point): Promise<Uint8Array | null> {
  const factor = Math.min(1, GROW_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * factor)),
    height = Math.max(1, Math.round(image.height * factor));
  const box = { x: 0, y: 0, width: image.width, height: image.height };
  const grid = await gridOf(image, soft, box, width, height);
  const { rgb } = grid;
  const { x: px, y: py } = pixelOf(tap, image);
  const tx = Math.min(width - 1, Math.floor(px * factor)),
    ty = Math.min(height - 1, Math.floor(py * factor));
  const colour = meanAround(grid, tx, ty, 1);
  const distanceTo = (p: number) =>
    Math.hypot(rgb[p * 3]! - colour[0], rgb[p * 3 + 1]! - colour[1], rgb[p * 3 + 2]! - colour[2]);
  // The nearest ring around the tap that reaches past the part: a wide handle needs a wider one.
  const contrast = RINGS.map(([inner, outer]) => ringMedian(grid, tx, ty, inner, outer, distanceTo)).find(
    (c) => c >= GROW_CONTRAST,
  );
  if (contrast === undefined) return null;
  const tolerance = clamp(contrast / 2, 12, 40);
  const part = new Uint8Array(width * height);
  const stack = [ty * width + tx];
  part[stack[0]!] = 1;
  let area = 0,
    attached = false;
  while (stack.length) {
    const p = stack.pop()!;
    area++;
    const x = p % width,
      y = (p - x) / width;
    if (x === 0 || y === 0 || x === width - 1 || y === height - 1 || area > GROW_MAX_SHARE * width * height)
      return null;
    for (const q of [p - 1, p + 1, p - width, p + width]) {
      if (grid.soft[q]! >= SOLID) attached = true;
      if (part[q] || grid.soft[q]! >= SOLID || distanceTo(q) >= tolerance) continue;
      part[q] = 1;
      stack.push(q);
    }
  }
  // A part of the product hangs on to it; a patch of colour on its own is something else (the model would have drawn an object).
  if (!attached) return null;
  // Close the part's JPEG-noise pinholes.
  const closed = erode(dilate(part, width, height, 1), width, height, 1);
  const out = soft.slice();
  forEachPhotoPixel(box, width, height, image.width, (o, w) => {
    if (closed[w]) out[o] = 255;
  });
  return out;
}

/** A tap as a pixel of the grid made of `box` (see gridOf); -1 when it falls outside the box. */
export function gridPixel(tap: Point, image: RawImage, box: Box, grid: { width: number; height: number }): number {
  const { x, y } = pixelOf(tap, image);
  if (x < box.x || y < box.y || x >= box.x + box.width || y >= box.y + box.height) return -1;
  return (
    Math.min(grid.height - 1, Math.floor(((y - box.y) * grid.height) / box.height)) * grid.width +
    Math.min(grid.width - 1, Math.floor(((x - box.x) * grid.width) / box.width))
  );
}

/** The photo's pixels of `box` (lightly blurred against sensor and JPEG noise) and the soft mask, as a grid of at most SPLIT_PIXELS. */
export async function gridOf(
  image: RawImage,
  soft: Uint8Array,
  box: Box,
  width?: number,
  height?: number,
): Promise<SplitGrid> {
  const factor = Math.min(1, Math.sqrt(SPLIT_PIXELS / (box.width * box.height)));
  const w = width ?? Math.max(1, Math.round(box.width * factor)),
    h = height ?? Math.max(1, Math.round(box.height * factor));
  const region = { left: box.x, top: box.y, width: box.width, height: box.height };
  const rgb = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .extract(region)
    .removeAlpha()
    .blur(1)
    .resize(w, h, { fit: 'fill' })
    .raw()
    .toBuffer();
  const mask = await sharp(Buffer.from(soft.buffer, soft.byteOffset, soft.length), {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .extract(region)
    .resize(w, h, { fit: 'fill', kernel: 'nearest' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { rgb, soft: mask, width: w, height: h };
}

/** Calls `visit(photo pixel, grid pixel)` for every photo pixel of `box`, the grid being box's pixels at width × height. */
function forEachPhotoPixel(
  box: Box,
  width: number,
  height: number,
  photoWidth: number,
  visit: (o: number, w: number) => void,
): void {
  for (let y = 0; y < box.height; y++) {
    const row = Math.min(height - 1, Math.floor((y * height) / box.height)) * width;
    for (let x = 0; x < box.width; x++)
      visit((box.y + y) * photoWidth + box.x + x, row + Math.min(width - 1, Math.floor((x * width) / box.width)));
  }
}

/** The region's pixel nearest `p` within `reach` (p itself when it is in the region); none when there is none. */
function nearestIn(region: Uint8Array, width: number, p: number, reach: number): number[] {
  if (p < 0) return [];
  if (region[p]) return [p];
  const height = region.length / width,
    px = p % width,
    py = (p - px) / width,
    r = Math.ceil(reach);
  let best = -1,
    bestDistance = reach * reach;
  for (let y = Math.max(0, py - r); y <= Math.min(height - 1, py + r); y++) {
    for (let x = Math.max(0, px - r); x <= Math.min(width - 1, px + r); x++) {
      const distance = (x - px) ** 2 + (y - py) ** 2;
      if (region[y * width + x] && distance <= bestDistance) [best, bestDistance] = [y * width + x, distance];
    }
  }
  return best >= 0 ? [best] : [];
}

/** The region's pixels within `radius` of `seed` (none or one pixel). */
function padOf(region: Uint8Array, width: number, seed: number[], radius: number): number[] {
  const out: number[] = [];
  for (const p of seed) {
    const height = region.length / width,
      px = p % width,
      py = (p - px) / width;
    for (let y = Math.max(0, py - radius); y <= Math.min(height - 1, py + radius); y++) {
      for (let x = Math.max(0, px - radius); x <= Math.min(width - 1, px + radius); x++) {
        if (region[y * width + x] && (x - px) ** 2 + (y - py) ** 2 <= radius * radius) out.push(y * width + x);
      }
    }
  }
  return out;
}

/** The model is this sure (0..255) of a pixel that may stand for the seller's side. */
export const SURE = 230;

/**
 * The region's pixel farthest from every drop seed among those the model is sure of, less those
 * `excluded` (a shadow on the floor is never the seller's product); none when there are none.
 */
export function farthestSure(
  grid: SplitGrid,
  region: Uint8Array,
  drops: readonly number[],
  excluded: Uint8Array,
): number[] {
  const { width, soft } = grid;
  let best = -1,
    bestScore = -1;
  for (let p = 0; p < region.length; p++) {
    if (!region[p] || soft[p]! < SURE || excluded[p]) continue;
    const x = p % width,
      y = (p - x) / width;
    let score = Number.POSITIVE_INFINITY;
    for (const d of drops) score = Math.min(score, (x - (d % width)) ** 2 + (y - Math.floor(d / width)) ** 2);
    if (score > bestScore) [best, bestScore] = [p, score];
  }
  return best >= 0 ? [best] : [];
}

function meanAround(grid: SplitGrid, x: number, y: number, radius: number): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let yy = Math.max(0, y - radius); yy <= Math.min(grid.height - 1, y + radius); yy++) {
    for (let xx = Math.max(0, x - radius); xx <= Math.min(grid.width - 1, x + radius); xx++) {
      for (let c = 0; c < 3; c++) sum[c]! += grid.rgb[(yy * grid.width + xx) * 3 + c]!;
      n++;
    }
  }
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

/** Median of `distanceTo` over a ring of grid pixels around (x, y): how far the tap's colour is from its surroundings. */
function ringMedian(
  grid: SplitGrid,
  x: number,
  y: number,
  inner: number,
  outer: number,
  distanceTo: (p: number) => number,
): number {
  const values: number[] = [];
  for (let yy = Math.max(0, y - outer); yy <= Math.min(grid.height - 1, y + outer); yy++) {
    for (let xx = Math.max(0, x - outer); xx <= Math.min(grid.width - 1, x + outer); xx++) {
      if (Math.max(Math.abs(xx - x), Math.abs(yy - y)) >= inner) values.push(distanceTo(yy * grid.width + xx));
    }
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? 0;
}
