import { bytesFrom } from './mask-ops.js';

/** A grid of pixels to split: RGB (3 bytes a pixel) and the model's confidence (0..255), width × height. */
export interface SplitGrid {
  rgb: Uint8Array;
  soft: Uint8Array;
  width: number;
  height: number;
}

/**
 * How much a colour step costs against a step of plain distance: (ΔRGB / COLOUR_STEP)². An edge
 * between two objects of one colour is a shading step of 10–30 levels; noise after the blur is a
 * few levels, so it costs next to nothing.
 */
const COLOUR_STEP = 8;
/**
 * What a pixel costs a side for each nat its colour is likelier on the other side (GrabCut's
 * colour models, learnt around the taps): where the two objects differ in colour, a side cannot
 * creep far into the other's colours, whatever the distances; where they share it, this is nought.
 */
const COLOUR_MODEL_WEIGHT = 2;
/** Colour levels per channel of those models: coarse, as they learn from a few hundred pixels. */
const MODEL_LEVELS = 8;
/** Likewise for a step in the model's confidence (0..255): where the model sees two objects, it dips between them. */
const CONFIDENCE_STEP = 24;

const NEIGHBOURS = [
  [1, 0, 1],
  [-1, 0, 1],
  [0, 1, 1],
  [0, -1, 1],
  [1, 1, Math.SQRT2],
  [-1, 1, Math.SQRT2],
  [1, -1, Math.SQRT2],
  [-1, -1, Math.SQRT2],
] as const;

/**
 * Splits a region between the seller's keep and drop seeds: every pixel goes to the seed it is
 * nearest to along a path through the region, where a path costs its length plus the colour and
 * confidence edges it crosses (a geodesic competition, as in Bai and Sapiro's geodesic matting).
 * Two objects of one colour still meet at an edge, however faint, and the keep tap's object
 * ends there; where there is no edge at all the split falls half way between the taps. Colour
 * models learnt from `samples` (pixels around each side's taps) keep each side to its colours.
 * Returns 1 for the region's pixels a drop seed claims; pixels no seed reaches stay (0).
 */
export function geodesicSplit(
  grid: SplitGrid,
  region: Uint8Array,
  keep: readonly number[],
  drop: readonly number[],
  samples: { keep: readonly number[]; drop: readonly number[] },
): Uint8Array {
  const { rgb, soft, width, height } = grid;
  const n = width * height;
  const against = colourPenalties(rgb, region, samples);
  // Float64 as the heap keys: a distance rounded on storing would be relaxed again forever.
  const distance = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  // 0: unreached, 1: keep, 2: drop.
  const owner = new Uint8Array(n);
  const heap = new MinHeap();
  // Keep seeds first: a pixel under both a keep and a drop tap is kept.
  for (const [seeds, label] of [
    [keep, 1],
    [drop, 2],
  ] as const) {
    for (const p of seeds) {
      if (!region[p] || owner[p]) continue;
      distance[p] = 0;
      owner[p] = label;
      heap.push(p, 0);
    }
  }
  while (heap.size) {
    const d = heap.topKey(),
      p = heap.pop();
    if (d > distance[p]!) continue;
    const x = p % width,
      y = (p - x) / width;
    for (const [dx, dy, length] of NEIGHBOURS) {
      const qx = x + dx,
        qy = y + dy;
      if (qx < 0 || qy < 0 || qx >= width || qy >= height) continue;
      const q = qy * width + qx;
      if (!region[q]) continue;
      const dr = rgb[p * 3]! - rgb[q * 3]!,
        dg = rgb[p * 3 + 1]! - rgb[q * 3 + 1]!,
        db = rgb[p * 3 + 2]! - rgb[q * 3 + 2]!;
      const dc = soft[p]! - soft[q]!;
      const next =
        d +
        length * (1 + (dr * dr + dg * dg + db * db) / COLOUR_STEP ** 2 + (dc * dc) / CONFIDENCE_STEP ** 2) +
        against[owner[p]! - 1]![q]!;
      if (next >= distance[q]!) continue;
      distance[q] = next;
      owner[q] = owner[p]!;
      heap.push(q, next);
    }
  }
  return bytesFrom(owner, (o) => (o === 2 ? 1 : 0));
}

function colourBin(rgb: Uint8Array, p: number): number {
  const level = (v: number) => (v * MODEL_LEVELS) >> 8;
  return (level(rgb[p * 3]!) * MODEL_LEVELS + level(rgb[p * 3 + 1]!)) * MODEL_LEVELS + level(rgb[p * 3 + 2]!);
}

/** Per side (keep, drop), each region pixel's cost: COLOUR_MODEL_WEIGHT × how many nats likelier its colour is on the other side, if it is. */
function colourPenalties(
  rgb: Uint8Array,
  region: Uint8Array,
  samples: { keep: readonly number[]; drop: readonly number[] },
): [Float32Array, Float32Array] {
  const bins = MODEL_LEVELS ** 3;
  const logLikelihood = (pixels: readonly number[]) => {
    const counts = new Float64Array(bins);
    for (const p of pixels) counts[colourBin(rgb, p)]! += 1;
    return counts.map((c) => Math.log((c + 1) / (pixels.length + bins)));
  };
  const keep = logLikelihood(samples.keep),
    drop = logLikelihood(samples.drop);
  const out: [Float32Array, Float32Array] = [new Float32Array(region.length), new Float32Array(region.length)];
  for (let p = 0; p < region.length; p++) {
    if (!region[p]) continue;
    const bin = colourBin(rgb, p),
      lean = drop[bin]! - keep[bin]!;
    out[0][p] = COLOUR_MODEL_WEIGHT * Math.max(0, lean);
    out[1][p] = COLOUR_MODEL_WEIGHT * Math.max(0, -lean);
  }
  return out;
}

/** A binary min-heap of pixel indices by key; stale entries are skipped by the caller. */
class MinHeap {
  private keys = new Float64Array(1024);
  private items = new Int32Array(1024);
  size = 0;

  push(item: number, key: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2),
        items = new Int32Array(this.size * 2);
      keys.set(this.keys);
      items.set(this.items);
      [this.keys, this.items] = [keys, items];
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[i] = this.keys[parent]!;
      this.items[i] = this.items[parent]!;
      i = parent;
    }
    this.keys[i] = key;
    this.items[i] = item;
  }

  topKey(): number {
    return this.keys[0]!;
  }

  pop(): number {
    const top = this.items[0]!;
    const key = this.keys[--this.size]!,
      item = this.items[this.size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= key) break;
      this.keys[i] = this.keys[child]!;
      this.items[i] = this.items[child]!;
      i = child;
    }
    this.keys[i] = key;
    this.items[i] = item;
    return top;
  }
}
