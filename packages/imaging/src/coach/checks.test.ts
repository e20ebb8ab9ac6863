import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  cutEdges,
  edgeCut,
  minProductSide,
  pixelWarnings,
  productScale,
  productSide,
  productWarnings,
  type ProductMask,
} from './checks.js';
import { exposure, sharpness } from './measure.js';
import { measurePhoto, readProductMask, type PhotoStats } from './read-photo.js';
import { COACH_THRESHOLDS } from './thresholds.js';

/** A sharp-edged checkerboard photo: the clean case every spoiled copy starts from. */
function checkerboard(size = 800, cell = 40): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++)
      pixels.fill(((x / cell) ^ (y / cell)) & 1 ? 220 : 40, (y * size + x) * 3, (y * size + x) * 3 + 3);
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .jpeg()
    .toBuffer();
}

const codes = (stats: PhotoStats, shot = 1024) => pixelWarnings(stats, shot).map((w) => w.code);

function square(width: number, height: number, box: { x: number; y: number; w: number; h: number }): ProductMask {
  const data = new Uint8Array(width * height);
  for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) data[y * width + x] = 1;
  return { data, width, height };
}

describe('pixel checks', () => {
  it('passes a sharp, well exposed photo and flags its blurred copy', async () => {
    const clean = await checkerboard();
    expect(codes(await measurePhoto(clean))).toEqual([]);
    const blurred = await sharp(clean).blur(6).jpeg().toBuffer();
    expect(codes(await measurePhoto(blurred))).toEqual(['blurry']);
  });

  it('flags a dark copy as too dark (not blurry) and a blown copy as too bright', async () => {
    const clean = await checkerboard();
    expect(codes(await measurePhoto(await sharp(clean).linear(0.18, 0).jpeg().toBuffer()))).toEqual(['too_dark']);
    expect(codes(await measurePhoto(await sharp(clean).linear(2.2, 50).jpeg().toBuffer()))).toContain('too_bright');
  });

  it('says nothing of size for a clean 2000×1500 photo on any plan, and flags one smaller than any product could need', async () => {
    const clean2000 = { ...(await measurePhoto(await checkerboard())), width: 2000, height: 1500 };
    for (const shot of [1024, 2048, 4096]) expect(codes(clean2000, shot)).toEqual([]);
    const stats = await measurePhoto(await checkerboard(600, 30));
    expect(codes(stats, 2048)).toEqual([]);
    expect(codes(stats, 4096)).toEqual(['low_resolution']);
  });

  it('counts only a cutout’s opaque pixels for exposure', async () => {
    const grey = { data: new Uint8Array([255, 255, 255, 30, 40, 50]), width: 6, height: 1 };
    expect(exposure(grey).clipped).toBeCloseTo(0.5);
    expect(exposure(grey, new Uint8Array([0, 0, 0, 1, 1, 1]))).toMatchObject({ clipped: 0, high: 50 });
  });

  it('judges sharpness by the sharpest tiles, so a flat backdrop does not hide a sharp product', () => {
    const width = 320,
      height = 320;
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) data[y * width + x] = (x + y) % 2 ? 0 : 255;
    expect(sharpness({ data, width, height })).toBeGreaterThan(COACH_THRESHOLDS.blurSharpness);
    expect(sharpness({ data: new Uint8Array(width * height).fill(255), width, height })).toBe(0);
  });
});

describe('product checks', () => {
  it('flags a product the frame cuts, not one that stands on the edge at a point', () => {
    expect(edgeCut(square(100, 100, { x: 60, y: 20, w: 40, h: 50 }))).toBe(1);
    const standing = square(100, 100, { x: 30, y: 20, w: 40, h: 79 });
    standing.data[99 * 100 + 50] = 1;
    expect(edgeCut(standing)).toBeLessThan(COACH_THRESHOLDS.cutOffRun);
    expect(
      productWarnings(
        { mask: square(100, 100, { x: 60, y: 20, w: 40, h: 50 }), photoWidth: 4000, candidates: 1, needsFocus: false },
        2048,
        'footwear',
      ),
    ).toEqual([
      {
        code: 'product_cut_off',
        message: 'The shoe is cut off at the right edge.',
        advice: 'Step back so the whole shoe is in the frame.',
      },
    ]);
  });

  it('flags a product far away and a photo with competing objects', () => {
    const far = square(200, 200, { x: 90, y: 90, w: 20, h: 30 });
    expect(productScale(far)).toBeCloseTo(0.15);
    expect(
      productWarnings({ mask: far, photoWidth: 4000, candidates: 2, needsFocus: false }, 2048).map((w) => w.code),
    ).toEqual(['product_too_small', 'busy_background']);
    // Unsure of the product, the engine's mask may be another object: no size or cut verdict on it.
    expect(
      productWarnings({ mask: far, photoWidth: 200, candidates: 2, needsFocus: true }, 4096).map((w) => w.code),
    ).toEqual(['busy_background']);
    expect(
      productWarnings(
        {
          mask: square(200, 200, { x: 40, y: 40, w: 100, h: 120 }),
          photoWidth: 2000,
          candidates: 1,
          needsFocus: false,
        },
        4096,
      ),
    ).toEqual([]);
  });

  it('names every edge that cuts the product off', () => {
    const corner = square(100, 100, { x: 0, y: 50, w: 40, h: 50 });
    expect(cutEdges(corner)).toEqual(['bottom', 'left']);
    expect(
      productWarnings({ mask: corner, photoWidth: 3000, candidates: 1, needsFocus: false }, 1024)[0]!.message,
    ).toBe('The product is cut off at the bottom and left edges.');
    expect(cutEdges(square(100, 100, { x: 30, y: 20, w: 40, h: 50 }))).toEqual([]);
  });

  it('flags a product with too few pixels for the plan’s shots: under 1,192 px for 4096 px shots, not a 2000×1500 photo’s large product', () => {
    expect([1024, 2048, 4096].map(minProductSide)).toEqual([298, 596, 1192]);
    // A 200×150 mask of a 2000×1500 photo: ten photo pixels a mask pixel.
    const region = square(200, 150, { x: 70, y: 45, w: 60, h: 50 });
    expect(productSide(region, 2000)).toBe(600);
    const shape = { mask: region, photoWidth: 2000, candidates: 1, needsFocus: false };
    expect(productWarnings(shape, 4096).map((w) => w.code)).toEqual(['low_resolution']);
    expect(productWarnings(shape, 2048)).toEqual([]);
    const large = { ...shape, mask: square(200, 150, { x: 30, y: 10, w: 130, h: 120 }) };
    for (const shot of [1024, 2048, 4096]) expect(productWarnings(large, shot)).toEqual([]);
  });

  it('reads a finding’s PNG mask as 0/1 pixels', async () => {
    const png = await sharp(Buffer.from([0, 255, 200, 10]), { raw: { width: 2, height: 2, channels: 1 } })
      .png()
      .toBuffer();
    expect(Array.from((await readProductMask(png)).data)).toEqual([0, 1, 1, 0]);
  });
});
