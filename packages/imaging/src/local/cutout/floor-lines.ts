import type { RawImage } from '../../input/normalise-input.js';
import { boundingBox, bytesFrom, connectedComponents, cropPlane, dilate, grow, opening } from './mask-ops.js';

/** Strands of the mask thinner than twice this share of the photo's short side are lines, not bodies. */
const STRAND_RADIUS = 1 / 300;

/** RGBA pixels of (a crop of) the photo. */
type Pixels = Pick<RawImage, 'width' | 'height'> & { data: Uint8Array };

interface Strand {
  pixels: number[];
  /** Pixels beside the product's body, where the strand hangs from it. */
  roots: number[];
  reachesFrame: boolean;
}

/**
 * The mask without the floor's lines the model followed out of the product: the grout of tiles,
 * a crack, a seam between planks, drawn as hair-thin strands from the product's body. A strand is
 * the floor's when it runs to the photo's edge (the frame cuts a product through its body, not
 * along a hair-thin line) or when the photo draws the same line on past its free end (a grout
 * line goes on under the floor's light; a temple, a strap's end or a lace stops). Thin parts of
 * the product, however thin, are kept.
 */
export function withoutFloorLines(soft: Uint8Array, image: RawImage): Uint8Array {
  const found = boundingBox(soft, image.width, image.height, 128);
  if (!found) return soft;
  const radius = Math.max(2, Math.round(Math.min(image.width, image.height) * STRAND_RADIUS));
  // Only the product and what is read around its strands: its box, grown past where a line is followed.
  // A strand reaches the crop's edge only where the crop could not grow: the photo's edge.
  const box = grow(found, (LOOK_AHEAD + 1) * radius + 3, image.width, image.height);
  const local: Pixels = {
    data: cropPlane<Uint8Array>(image.data, image.width, box, 4),
    width: box.width,
    height: box.height,
  };
  const kept = linesDropped(cropPlane(soft, image.width, box), local, radius);
  if (!kept) return soft;
  const out = soft.slice();
  for (let y = 0; y < box.height; y++)
    out.set(kept.subarray(y * box.width, (y + 1) * box.width), (box.y + y) * image.width + box.x);
  return out;
}

/** The soft mask of a crop without its floor's lines, or null when it has none. */
function linesDropped(soft: Uint8Array, image: Pixels, radius: number): Uint8Array | null {
  const { width, height } = image;
  const solid = bytesFrom(soft, (v) => (v >= 128 ? 1 : 0));
  const body = opening(solid, width, height, radius);
  const { labels, sizes } = connectedComponents(
    bytesFrom(solid, (v, p) => v & (body[p]! ^ 1)),
    width,
    height,
  );
  const strands = strandsOf(labels, sizes.length, body, width, height);
  if (!strands.length) return null;
  const walk = walkFromRoots(strands, labels, width);
  const floorLines = strands.filter(
    (strand) => strand.reachesFrame || goesOnPastItsEnds(strand, image, solid, radius, walk),
  );
  if (!floorLines.length) return null;
  const lines = new Uint8Array(width * height);
  for (const strand of floorLines) for (const p of strand.pixels) lines[p] = 1;
  // The line's soft rim goes with it; the body's own edge stays.
  const rim = dilate(lines, width, height, radius);
  return bytesFrom(soft, (v, p) => (rim[p]! && !body[p] ? 0 : v));
}

function strandsOf(labels: Int32Array, count: number, body: Uint8Array, width: number, height: number): Strand[] {
  const strands: Strand[] = Array.from({ length: count }, () => ({ pixels: [], roots: [], reachesFrame: false }));
  for (let p = 0; p < labels.length; p++) {
    const label = labels[p]!;
    if (!label) continue;
    const strand = strands[label - 1]!,
      x = p % width,
      y = (p - x) / width;
    strand.pixels.push(p);
    if (x === 0 || y === 0 || x === width - 1 || y === height - 1) strand.reachesFrame = true;
    else if (body[p - 1] || body[p + 1] || body[p - width] || body[p + width]) strand.roots.push(p);
  }
  return strands;
}

/** How far past a free end (in strand radii) the photo is read for the line going on. */
const LOOK_AHEAD = 4;

/**
 * Whether the photo goes on drawing the strand's lines past most of its free ends: the ends
 * farthest from the body along the strand, each read a few radii on in its own direction. A
 * line goes on when most of the pixels there, one pixel either side allowed, are nearer the
 * line's colour near that end than the floor's beside it.
 */
function goesOnPastItsEnds(strand: Strand, image: Pixels, solid: Uint8Array, radius: number, walk: Walk): boolean {
  const ends = freeEnds(strand, walk, image.width, radius);
  const read = ends.map((end) => lineGoesOn(end, image, solid, radius, walk)).filter((v) => v !== null);
  const goingOn = read.filter(Boolean).length;
  return read.length > 0 && goingOn * 2 >= read.length;
}

/** Distances along the strands from the body (8-connected steps), and each pixel's step back. */
interface Walk {
  depth: Int32Array;
  back: Int32Array;
}

function walkFromRoots(strands: Strand[], labels: Int32Array, width: number): Walk {
  const depth = new Int32Array(labels.length).fill(-1);
  const back = new Int32Array(labels.length).fill(-1);
  const queue = new Int32Array(labels.length);
  let head = 0,
    tail = 0;
  for (const strand of strands)
    for (const p of strand.roots) {
      depth[p] = 0;
      queue[tail++] = p;
    }
  while (head < tail) {
    const p = queue[head++]!;
    for (const q of around(p, width, labels.length)) {
      if (labels[q] !== labels[p] || depth[q]! >= 0) continue;
      depth[q] = depth[p]! + 1;
      back[q] = p;
      queue[tail++] = q;
    }
  }
  return { depth, back };
}

function around(p: number, width: number, size: number): number[] {
  const x = p % width;
  const out: number[] = [];
  for (const dy of [-width, 0, width])
    for (const dx of [-1, 0, 1]) {
      if ((dx === -1 && x === 0) || (dx === 1 && x === width - 1) || (!dx && !dy)) continue;
      const q = p + dy + dx;
      if (q >= 0 && q < size) out.push(q);
    }
  return out;
}

/** The strand's pixels no farther along it than their neighbours, at least two radii from the body, one per end. */
function freeEnds(strand: Strand, walk: Walk, width: number, radius: number): number[] {
  const { depth } = walk;
  const ends: number[] = [];
  for (const p of strand.pixels) {
    if (depth[p]! < 2 * radius) continue;
    const x = p % width,
      y = (p - x) / width;
    if (deeperWithin(depth, p, x, y, width, radius)) continue;
    if (ends.some((e) => Math.abs((e % width) - x) <= radius && Math.abs(Math.floor(e / width) - y) <= radius))
      continue;
    ends.push(p);
  }
  return ends;
}

/** Whether a pixel of the strands within `radius` (a square) lies farther along them than p. */
function deeperWithin(depth: Int32Array, p: number, x: number, y: number, width: number, radius: number): boolean {
  const height = depth.length / width;
  for (let yy = Math.max(0, y - radius); yy <= Math.min(height - 1, y + radius); yy++)
    for (let xx = Math.max(0, x - radius); xx <= Math.min(width - 1, x + radius); xx++)
      if (depth[yy * width + xx]! > depth[p]!) return true;
  return false;
}

function lineGoesOn(end: number, image: Pixels, solid: Uint8Array, radius: number, walk: Walk): boolean | null {
  const { width, height } = image;
  const path = [end];
  while (path.length <= 2 * radius && walk.back[path.at(-1)!]! >= 0) path.push(walk.back[path.at(-1)!]!);
  const tip = pointOf(end, width),
    from = pointOf(path.at(-1)!, width);
  const length = Math.hypot(tip.x - from.x, tip.y - from.y);
  if (!length) return false;
  const along = { x: (tip.x - from.x) / length, y: (tip.y - from.y) / length };
  const across = { x: -along.y, y: along.x };
  const line = meanColour(image, path);
  const floor = meanColour(image, besideLine(path, across, radius + 2, solid, image));
  if (!floor || distance(line!, floor) < MIN_CONTRAST) return false;
  let seen = 0,
    onLine = 0;
  for (let step = 1; step <= LOOK_AHEAD * radius; step++) {
    const x = Math.round(tip.x + along.x * step),
      y = Math.round(tip.y + along.y * step);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) break;
    // The strand goes on here: where two walks along it met, not its end.
    if (solid[y * width + x]) return seen ? false : null;
    seen++;
    const nearLine = [-1, 0, 1].some((k) => {
      const colour = colourAt(image, Math.round(x + across.x * k), Math.round(y + across.y * k));
      return distance(colour, line!) < distance(colour, floor);
    });
    if (nearLine) onLine++;
  }
  return seen >= 2 * radius && onLine * 2 > seen;
}

function pointOf(p: number, width: number): { x: number; y: number } {
  const x = p % width;
  return { x, y: (p - x) / width };
}

/** Below this distance (RGB) the strand and the floor beside it are one colour: nothing to follow. */
const MIN_CONTRAST = 16;

type Colour = [number, number, number];

function besideLine(
  pixels: number[],
  across: { x: number; y: number },
  offset: number,
  solid: Uint8Array,
  image: Pixels,
): number[] {
  const { width, height } = image;
  const beside: number[] = [];
  for (const p of pixels) {
    const { x, y } = pointOf(p, width);
    for (const side of [-offset, offset]) {
      const bx = Math.round(x + across.x * side),
        by = Math.round(y + across.y * side);
      if (bx >= 0 && by >= 0 && bx < width && by < height && !solid[by * width + bx]) beside.push(by * width + bx);
    }
  }
  return beside;
}

function meanColour(image: Pixels, pixels: number[]): Colour | null {
  if (!pixels.length) return null;
  let r = 0,
    g = 0,
    b = 0;
  for (const p of pixels) {
    r += image.data[p * 4]!;
    g += image.data[p * 4 + 1]!;
    b += image.data[p * 4 + 2]!;
  }
  return [r / pixels.length, g / pixels.length, b / pixels.length];
}

function colourAt(image: Pixels, x: number, y: number): Colour {
  const p = (y * image.width + x) * 4;
  return [image.data[p]!, image.data[p + 1]!, image.data[p + 2]!];
}

function distance(a: Colour, b: Colour): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
