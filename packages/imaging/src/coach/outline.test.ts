import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OUTLINE_PREVIEW_SIDE } from '@prodshot/contracts';
import { largeParts, outlineDoubts, outlineOf } from './outline.js';
import type { ProductMask } from './checks.js';

/** A width × height mask with the given rectangles set. */
function mask(width: number, height: number, boxes: [number, number, number, number][]): ProductMask {
  const data = new Uint8Array(width * height);
  for (const [x0, y0, w, h] of boxes)
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) data[y * width + x] = 1;
  return { data, width, height };
}

const sure = { confidence: 0.9, severalObjects: false };

describe('outlineDoubts', () => {
  it('is sure of one product in the middle of the photo', () => {
    expect(outlineDoubts(mask(100, 100, [[30, 30, 40, 40]]), sure)).toEqual([]);
  });

  it('doubts a mask running along the frame, in two large parts, filling the photo, or scored low', () => {
    expect(outlineDoubts(mask(100, 100, [[0, 30, 40, 40]]), sure)).toEqual(['touches_frame']);
    expect(
      outlineDoubts(
        mask(100, 100, [
          [10, 30, 20, 20],
          [60, 30, 20, 20],
        ]),
        sure,
      ),
    ).toEqual(['several_parts']);
    expect(outlineDoubts(mask(100, 100, [[5, 5, 90, 90]]), sure)).toEqual(['large_share']);
    expect(outlineDoubts(mask(100, 100, [[30, 30, 40, 40]]), { confidence: 0.3, severalObjects: true })).toEqual([
      'low_score',
      'several_objects',
    ]);
  });

  it('counts only large parts: a speck beside the product is no second part', () => {
    expect(
      largeParts(
        mask(100, 100, [
          [30, 30, 40, 40],
          [90, 90, 2, 2],
        ]),
      ),
    ).toBe(1);
  });
});

describe('outlineOf', () => {
  it('makes a WebP preview at most the preview side, and the cutout’s alpha as a mask', async () => {
    const alpha = Buffer.alloc(1600 * 800, 0);
    for (let y = 200; y < 600; y++) alpha.fill(255, y * 1600 + 600, y * 1600 + 1000);
    const cutout = await sharp({ create: { width: 1600, height: 800, channels: 3, background: '#c03' } })
      .joinChannel(alpha, { raw: { width: 1600, height: 800, channels: 1 } })
      .png()
      .toBuffer();
    const { preview, mask: found } = await outlineOf(cutout);
    const meta = await sharp(preview).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual([
      'webp',
      OUTLINE_PREVIEW_SIDE,
      OUTLINE_PREVIEW_SIDE / 2,
      true,
    ]);
    expect(outlineDoubts(found, sure)).toEqual([]);
  });
});
