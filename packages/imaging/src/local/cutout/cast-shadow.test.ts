import { describe, expect, it } from 'vitest';
import { castShadowPixels, isCastShadow } from './cast-shadow.js';

describe('cast shadows', () => {
  it('takes a darker copy of the floor for a shadow, and neither the floor itself, a black strap nor a red product', () => {
    const concrete = [170, 168, 160] as const;
    expect(isCastShadow([85, 84, 80], concrete)).toBe(true);
    expect(isCastShadow(concrete, concrete)).toBe(false);
    expect(isCastShadow([20, 20, 20], concrete)).toBe(false);
    expect(isCastShadow([150, 40, 30], concrete)).toBe(false);
  });

  it("takes a deep shadow on blue-grey tiles for one, but not a navy mug's dark edge a hue away from them", () => {
    const tiles = [140, 150, 160] as const;
    expect(isCastShadow([50, 55, 60], tiles)).toBe(true);
    expect(isCastShadow([70, 75, 80], tiles)).toBe(true);
    expect(isCastShadow([45, 48, 75], tiles)).toBe(false);
  });

  it('marks the region pixels that are a shadow on the floor around the region, not those of the product', () => {
    // A 60×10 grid of concrete; the region is a red block (x 20–35) and its shadow beside it (x 36–39).
    const width = 60,
      height = 10;
    const rgb = new Uint8Array(width * height * 3),
      region = new Uint8Array(width * height);
    for (let p = 0; p < width * height; p++) {
      const x = p % width;
      const colour = x >= 20 && x < 36 ? [150, 40, 30] : x >= 36 && x < 40 ? [90, 89, 85] : [170, 168, 160];
      rgb.set(colour, p * 3);
      region[p] = x >= 20 && x < 40 ? 1 : 0;
    }
    const shadow = castShadowPixels({ rgb, soft: new Uint8Array(width * height), width, height }, region);
    const shadowColumns = Array.from(shadow.subarray(5 * width, 6 * width)).flatMap((value, x) => (value ? [x] : []));
    expect(shadowColumns).toEqual([36, 37, 38, 39]);
  });
});
