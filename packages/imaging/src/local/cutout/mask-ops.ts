// Over 250 lines: the mask operations every cutout step imports (components, holes, box sums, erosion and dilation,
// boxes, crops) are one small toolbox; split, each file would hold a function or two.
import type { Box } from '../../types.js';

/** Binary masks are Uint8Array of 0/1, row-major, width × height. */

/** Each pixel of `source` mapped to a byte: `Uint8Array.from` with a map function is some 20× slower at a photo's size. */
export function bytesFrom(source: ArrayLike<number>, value: (v: number, p: number) => number): Uint8Array {
  const out = new Uint8Array(source.length);
  for (let p = 0; p < out.length; p++) out[p] = value(source[p]!, p);
  return out;
}

export interface Components {
  labels: Int32Array;
  /** sizes[label - 1] is the pixel count of that component. */
  sizes: number[];
}

/** 4-connected components of the set pixels, labelled from 1. */
export function connectedComponents(mask: Uint8Array, width: number, height: number): Components {
  const labels = new Int32Array(width * height);
  const sizes: number[] = [];
  const stack = new Int32Array(width * height);
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] === 0 || labels[start] !== 0) continue;
    const label = sizes.length + 1;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const p = stack[--top]!;
      size++;
      const x = p % width;
      if (x > 0 && mask[p - 1] && !labels[p - 1]) {
        labels[p - 1] = label;
        stack[top++] = p - 1;
      }
      if (x < width - 1 && mask[p + 1] && !labels[p + 1]) {
        labels[p + 1] = label;
        stack[top++] = p + 1;
      }
      if (p >= width && mask[p - width] && !labels[p - width]) {
        labels[p - width] = label;
        stack[top++] = p - width;
      }
      if (p + width < mask.length && mask[p + width] && !labels[p + width]) {
        labels[p + width] = label;
        stack[top++] = p + width;
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/** Sets every unset pixel that cannot reach the image border through unset pixels. */
export function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const outside = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  let top = 0;
  const seed = (p: number) => {
    if (mask[p] === 0 && outside[p] === 0) {
      outside[p] = 1;
      stack[top++] = p;
    }
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % width;
    if (x > 0) seed(p - 1);
    if (x < width - 1) seed(p + 1);
    if (p >= width) seed(p - width);
    if (p + width < mask.length) seed(p + width);
  }
  const filled = new Uint8Array(mask.length);
  for (let p = 0; p < mask.length; p++) filled[p] = outside[p] ? 0 : 1;
  return filled;
}

/** Box sum over a (2r+1)² window, separable running sums, O(n) whatever the radius. */
export function boxSum(values: Float32Array, width: number, height: number, radius: number): Float32Array {
  const tmp = new Float32Array(values.length);
  const out = new Float32Array(values.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let acc = 0;
    for (let x = -radius; x <= radius; x++) acc += values[row + clamp(x, 0, width - 1)]!;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = acc;
      acc += values[row + Math.min(x + radius + 1, width - 1)]! - values[row + Math.max(x - radius, 0)]!;
    }
  }
  // Down the columns a row at a time, one running sum per column: memory is read in order, where a
  // column at a time strides a whole row per step (a third slower at photo sizes, same sums).
  const acc = new Float64Array(width);
  for (let y = -radius; y <= radius; y++) {
    const row = clamp(y, 0, height - 1) * width;
    for (let x = 0; x < width; x++) acc[x] = acc[x]! + tmp[row + x]!;
  }
  for (let y = 0; y < height; y++) {
    const row = y * width,
      entering = Math.min(y + radius + 1, height - 1) * width,
      leaving = Math.max(y - radius, 0) * width;
    for (let x = 0; x < width; x++) {
      out[row + x] = acc[x]!;
      acc[x] = acc[x]! + (tmp[entering + x]! - tmp[leaving + x]!);
    }
  }
  return out;
}

/**
 * Mean colour of the pixels with weight 1 within `span` of each pixel, as RGB planes (NaN where
 * there are none). `pixels` holds `channels` bytes a pixel (RGB or RGBA), red first.
 */
export function weightedMeans(
  pixels: Uint8Array,
  channels: number,
  weights: Float32Array,
  width: number,
  height: number,
  span: number,
): Float32Array[] {
  const n = width * height;
  const counts = boxSum(weights, width, height, span);
  return [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = weights[i]! * pixels[i * channels + c]!;
    const sums = boxSum(plane, width, height, span);
    for (let i = 0; i < n; i++) sums[i] = counts[i]! > 0.5 ? sums[i]! / counts[i]! : Number.NaN;
    return sums;
  });
}

/** Each pixel's city-block distance to the nearest pixel outside a 0/1 mask (or past its border): how deep inside it is. */
export function interiorDepth(mask: Uint8Array, width: number, height: number): Uint16Array {
  const depth = new Uint16Array(mask.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (mask[p]) depth[p] = Math.min(y ? depth[p - width]! : 0, x ? depth[p - 1]! : 0) + 1;
    }
  for (let y = height - 1; y >= 0; y--)
    for (let x = width - 1; x >= 0; x--) {
      const p = y * width + x;
      if (!mask[p]) continue;
      const below = y < height - 1 ? depth[p + width]! : 0,
        right = x < width - 1 ? depth[p + 1]! : 0;
      depth[p] = Math.min(depth[p]!, below + 1, right + 1);
    }
  return depth;
}

/** Morphological erosion (shrink) by a square of the given radius; pixels past the border do not count. */
export function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return mask.slice();
  return squareColumns(squareRows(mask, width, radius, true), width, height, radius, true);
}

/** Morphological opening by a square of the given radius: what survives is at least 2 × radius + 1 wide. */
export function opening(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  return dilate(erode(mask, width, height, radius), width, height, radius);
}

/** Morphological dilation (grow) by a square of the given radius. */
export function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return mask.slice();
  return squareColumns(squareRows(mask, width, radius, false), width, height, radius, false);
}

/**
 * A square's erosion (`every`) or dilation along the rows: a running count of the set pixels
 * within `radius`, so it costs the same at any radius.
 */
function squareRows(mask: Uint8Array, width: number, radius: number, every: boolean): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let row = 0; row < mask.length; row += width) {
    let count = 0;
    for (let x = 0; x <= Math.min(radius, width - 1); x++) count += mask[row + x]!;
    for (let x = 0; x < width; x++) {
      const window = Math.min(x + radius, width - 1) - Math.max(x - radius, 0) + 1;
      out[row + x] = (every ? count === window : count > 0) ? 1 : 0;
      if (x + radius + 1 < width) count += mask[row + x + radius + 1]!;
      if (x - radius >= 0) count -= mask[row + x - radius]!;
    }
  }
  return out;
}

/** squareRows down the columns, a row at a time with a count per column: memory is read in order. */
function squareColumns(mask: Uint8Array, width: number, height: number, radius: number, every: boolean): Uint8Array {
  const out = new Uint8Array(mask.length);
  const counts = new Int32Array(width);
  for (let y = 0; y <= Math.min(radius, height - 1); y++)
    for (let x = 0; x < width; x++) counts[x]! += mask[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const window = Math.min(y + radius, height - 1) - Math.max(y - radius, 0) + 1;
    const row = y * width,
      entering = (y + radius + 1) * width,
      leaving = (y - radius) * width;
    for (let x = 0; x < width; x++) out[row + x] = (every ? counts[x] === window : counts[x]! > 0) ? 1 : 0;
    if (y + radius + 1 < height) for (let x = 0; x < width; x++) counts[x]! += mask[entering + x]!;
    if (y - radius >= 0) for (let x = 0; x < width; x++) counts[x]! -= mask[leaving + x]!;
  }
  return out;
}

/**
 * Bounding box of the pixels at or above `threshold`, or null when there are none. `stride` and
 * `offset` read one channel of interleaved data (RGBA alpha: 4, 3). Rows are scanned inward from
 * the top and the bottom, and the rows between only outside the columns already known, so a
 * product in the middle of a large image costs a fraction of a full pass.
 */
export function boundingBox(values: Uint8Array, width: number, height: number, threshold = 1, stride = 1, offset = 0) {
  const rowStep = width * stride;
  /** First column at or above the threshold in row y, scanning [from, to) by step ±1; -1 if none. */
  const firstHit = (y: number, from: number, to: number): number => {
    const step = from < to ? 1 : -1;
    for (let x = from, i = y * rowStep + from * stride + offset; x !== to; x += step, i += step * stride)
      if (values[i]! >= threshold) return x;
    return -1;
  };
  let minY = 0;
  while (minY < height && firstHit(minY, 0, width) < 0) minY++;
  if (minY === height) return null;
  let maxY = height - 1;
  while (firstHit(maxY, 0, width) < 0) maxY--;
  let minX = width,
    maxX = -1;
  for (let y = minY; y <= maxY; y++) {
    const left = firstHit(y, 0, minX);
    if (left >= 0) minX = left;
    const right = firstHit(y, width - 1, maxX);
    if (right >= 0) maxX = right;
  }
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

export function grow(box: Box, margin: number, width: number, height: number): Box {
  const x = Math.max(0, box.x - margin),
    y = Math.max(0, box.y - margin);
  return {
    x,
    y,
    width: Math.min(width, box.x + box.width + margin) - x,
    height: Math.min(height, box.y + box.height + margin) - y,
  };
}

/** A copy of a box of a per-pixel array holding `channels` values a pixel (RGBA: 4). */
export function cropPlane<T extends Uint8Array | Int32Array | Float32Array>(
  plane: T,
  width: number,
  box: Box,
  channels = 1,
): T {
  const length = box.width * box.height * channels;
  const out = (
    plane instanceof Float32Array
      ? new Float32Array(length)
      : plane instanceof Int32Array
        ? new Int32Array(length)
        : new Uint8Array(length)
  ) as T;
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * width + box.x) * channels;
    out.set(plane.subarray(from, from + box.width * channels), y * box.width * channels);
  }
  return out;
}
