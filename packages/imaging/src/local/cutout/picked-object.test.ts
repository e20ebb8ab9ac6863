import { describe, expect, it } from 'vitest';
import { softMask } from './picked-object.js';
import type { SaliencyMap } from './saliency-map.js';

describe('softMask', () => {
  it("enlarges the model's mask with pixel centres aligned, so a one-pixel part on the left and top rims stays", async () => {
    // A 10 × 10 map with a product over columns and rows 2..7 and a one-pixel strap out to column 1 on row 4.
    const mask = new Float32Array(100);
    for (let y = 2; y < 8; y++) for (let x = 2; x < 8; x++) mask[y * 10 + x] = 1;
    mask[4 * 10 + 1] = 1;
    const map: SaliencyMap = {
      mask,
      width: 10,
      height: 10,
      window: { x: 0, y: 0, width: 30, height: 30 },
      rgb: Buffer.alloc(300),
    };
    const members = Uint8Array.from(mask, (v) => (v >= 0.5 ? 1 : 0));
    const soft = await softMask({ map, members, confidence: 1 }, { width: 30, height: 30 });
    const at = (x: number, y: number) => soft[y * 30 + x]!;
    // ×3: the product covers photo pixels 6..23 on both axes, the strap 3..5 on rows 12..14.
    expect(at(6, 15)).toBeGreaterThanOrEqual(128);
    expect(at(15, 6)).toBeGreaterThanOrEqual(128);
    expect(at(4, 13)).toBeGreaterThanOrEqual(128);
    expect(at(23, 15)).toBeGreaterThanOrEqual(128);
    expect(at(24, 15)).toBeLessThan(128);
    expect(at(15, 24)).toBeLessThan(128);
  });
});
