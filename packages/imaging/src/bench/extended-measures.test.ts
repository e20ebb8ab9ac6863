import { describe, expect, it } from 'vitest';
import { halfOf, shadowInMask, shadowPixels, thinPartKept, thinPartOf } from './extended-measures.js';

/** A width × height plane with 255 inside the given rectangles. */
function plane(width: number, height: number, rects: Array<[number, number, number, number]>): Uint8Array {
  const out = new Uint8Array(width * height);
  for (const [x0, y0, w, h] of rects) for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) out[y * width + x] = 255;
  return out;
}

const count = (mask: Uint8Array) => mask.reduce((a, v) => a + (v ? 1 : 0), 0);

describe('halfOf', () => {
  it('alternates by sorted file name, whatever order the photographs are listed in', () => {
    const photos = ['c.jpg', 'a.jpg', 'd.jpg', 'b.jpg', 'a.jpg'];
    expect(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'].map((p) => halfOf(p, photos))).toEqual(['tuning', 'holdout', 'tuning', 'holdout']);
    expect(halfOf('b.jpg', [...photos].reverse())).toBe('holdout');
  });

  it('refuses a photograph the category does not hold', () => {
    expect(() => halfOf('z.jpg', ['a.jpg'])).toThrow(/z\.jpg/);
  });
});

describe('thin parts', () => {
  // Two 12 × 12 lenses joined by a 2 px bridge; the product's box is x 2–37, y 4–15.
  const width = 40, height = 20;
  const truth = plane(width, height, [[2, 4, 12, 12], [14, 9, 12, 2], [26, 4, 12, 12]]);
  const bridge = { x: [0.34, 0.66], y: [0, 1] } as const;

  it('takes the truth inside the named part, in fractions of the product, and not the lenses or the gap', () => {
    const thin = thinPartOf(truth, width, height, bridge);
    expect(count(thin)).toBe(24);
    for (let x = 14; x < 26; x++) expect(thin[9 * width + x]).toBe(1);
    expect(thin[9 * width + 13]).toBe(0);
    expect(thin[9 * width + 26]).toBe(0);
    expect(thin[5 * width + 20]).toBe(0);
  });

  it('follows the product wherever it stands in the photo', () => {
    const moved = plane(width, height, [[0, 0, 12, 12], [12, 5, 12, 2], [24, 0, 12, 12]]);
    const thin = thinPartOf(moved, width, height, bridge);
    expect(count(thin)).toBe(24);
    expect(thin[5 * width + 12]).toBe(1);
  });

  it('scores a cutout that lost the bridge as keeping none of it, and the truth as keeping all', () => {
    const thin = thinPartOf(truth, width, height, bridge);
    expect(thinPartKept(thin, truth)).toBe(1);
    expect(thinPartKept(thin, plane(width, height, [[2, 4, 12, 12], [26, 4, 12, 12]]))).toBe(0);
  });
});

describe('source shadow', () => {
  const width = 30, height = 20;
  const truth = plane(width, height, [[5, 2, 10, 10]]);
  const darkening = new Float32Array(width * height);
  for (let y = 12; y < 16; y++) for (let x = 5; x < 25; x++) darkening[y * width + x] = 0.4;

  it('counts darkened pixels beyond the product edge only', () => {
    const shadow = shadowPixels(darkening, truth, width, height, 0.1, 2);
    expect(count(shadow)).toBe(2 * 20 + 2 * 8); // rows 14–15 whole, rows 12–13 from x = 17 (2 px past the edge)
    expect(shadow[12 * width + 10]).toBe(0);
    expect(shadow[12 * width + 20]).toBe(1);
  });

  it('counts the shadow pixels a cutout kept as product', () => {
    const shadow = shadowPixels(darkening, truth, width, height, 0.1, 2);
    expect(shadowInMask(shadow, truth)).toBe(0);
    expect(shadowInMask(shadow, plane(width, height, [[5, 2, 10, 14]]))).toBe(20);
  });
});
