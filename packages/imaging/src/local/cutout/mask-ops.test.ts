import { describe, expect, it } from 'vitest';
import { boundingBox, dilate, erode, interiorDepth } from './mask-ops.js';

/** The plain full pass, as the reference. */
function everyPixelBox(
  values: Uint8Array,
  width: number,
  height: number,
  threshold: number,
  stride: number,
  offset: number,
) {
  let minX = width,
    minY = height,
    maxX = -1,
    maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (values[(y * width + x) * stride + offset]! < threshold) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return maxX < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

function scatter(width: number, height: number, stride: number, hits: number, seed: number): Uint8Array {
  const values = new Uint8Array(width * height * stride);
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < hits; i++)
    values[(Math.floor(next() * height) * width + Math.floor(next() * width)) * stride + stride - 1] =
      1 + Math.floor(next() * 255);
  return values;
}

describe('boundingBox', () => {
  it('finds the same box as a full pass, on one channel and on the alpha of interleaved RGBA', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const [width, height, hits] = [1 + (seed % 37), 1 + ((seed * 7) % 29), seed % 6];
      for (const [stride, threshold] of [
        [1, 1],
        [4, 128],
      ] as const) {
        const values = scatter(width, height, stride, hits, seed);
        expect(boundingBox(values, width, height, threshold, stride, stride - 1)).toEqual(
          everyPixelBox(values, width, height, threshold, stride, stride - 1),
        );
      }
    }
  });

  it('is null for an empty mask and the whole frame for a full one', () => {
    expect(boundingBox(new Uint8Array(12), 4, 3)).toBeNull();
    expect(boundingBox(new Uint8Array(12).fill(1), 4, 3)).toEqual({ x: 0, y: 0, width: 4, height: 3 });
  });
});

describe('interiorDepth', () => {
  it('counts the steps to the nearest pixel outside the mask, the frame counting as outside', () => {
    // A 5×4 block in a 7×5 grid, its right edge on the frame.
    const width = 7,
      height = 5;
    const mask = new Uint8Array(width * height);
    for (let y = 0; y < 4; y++) for (let x = 2; x < 7; x++) mask[y * width + x] = 1;
    const depth = interiorDepth(mask, width, height);
    const row = (y: number) => Array.from(depth.subarray(y * width, (y + 1) * width));
    expect(row(0)).toEqual([0, 0, 1, 1, 1, 1, 1]);
    expect(row(1)).toEqual([0, 0, 1, 2, 2, 2, 1]);
    expect(row(2)).toEqual([0, 0, 1, 2, 2, 2, 1]);
    expect(row(3)).toEqual([0, 0, 1, 1, 1, 1, 1]);
    expect(row(4)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

/** The plain definition: whether every (erosion) or any (dilation) photo pixel in the square around each pixel is set. */
function squareByDefinition(mask: Uint8Array, width: number, height: number, radius: number, every: boolean) {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let set = 0,
        seen = 0;
      for (let yy = Math.max(0, y - radius); yy <= Math.min(height - 1, y + radius); yy++)
        for (let xx = Math.max(0, x - radius); xx <= Math.min(width - 1, x + radius); xx++) {
          seen++;
          set += mask[yy * width + xx]!;
        }
      out[y * width + x] = (every ? set === seen : set > 0) ? 1 : 0;
    }
  return out;
}

describe('erode and dilate', () => {
  it('match their definition at every radius, up to and past the border, on a ragged mask', () => {
    const [width, height] = [37, 23];
    let state = 5;
    const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    // Mostly set for erosion, mostly clear for dilation: either way the answer is not the same everywhere.
    const ragged = (share: number) => Uint8Array.from({ length: width * height }, () => (random() < share ? 1 : 0));
    const dense = ragged(0.9),
      sparse = ragged(0.02);
    for (const radius of [1, 2, 5, 30]) {
      expect(erode(dense, width, height, radius)).toEqual(squareByDefinition(dense, width, height, radius, true));
      expect(dilate(sparse, width, height, radius)).toEqual(squareByDefinition(sparse, width, height, radius, false));
    }
  });
});
