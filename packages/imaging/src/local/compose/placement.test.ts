import { describe, expect, it } from 'vitest';
import { placeProduct, positionBox } from './placement.js';
import type { PlacementInput } from './placement.js';

const base: Omit<PlacementInput, 'productWidth' | 'productHeight'> = {
  size: 1000,
  style: 'centre',
  floor: 0.8,
  lightAzimuth: -0.5,
  view: 'eye-level',
};

function inside(box: { x: number; y: number; width: number; height: number }, size: number): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= size && box.y + box.height <= size;
}

describe('placeProduct', () => {
  it('fills the frame for catalog shots, centred', () => {
    const { box } = placeProduct({
      ...base,
      style: 'catalog',
      view: 'seamless',
      productWidth: 2000,
      productHeight: 1000,
    });
    expect(box.width).toBe(800);
    expect(Math.abs(box.x + box.width / 2 - 500)).toBeLessThanOrEqual(1);
  });

  it('rests a standing product on the floor line', () => {
    const { box } = placeProduct({ ...base, productWidth: 400, productHeight: 300 });
    expect(box.y + box.height).toBe(800);
  });

  it('puts lifestyle products on the third away from the light', () => {
    const fromLeft = placeProduct({ ...base, style: 'thirds', productWidth: 300, productHeight: 300 }).box;
    const fromRight = placeProduct({
      ...base,
      style: 'thirds',
      lightAzimuth: 0.7,
      productWidth: 300,
      productHeight: 300,
    }).box;
    expect(Math.round(fromLeft.x + fromLeft.width / 2)).toBe(667);
    expect(Math.round(fromRight.x + fromRight.width / 2)).toBe(333);
  });

  it('keeps tall, wide and tiny products whole inside the frame', () => {
    for (const [w, h] of [
      [100, 5000],
      [5000, 100],
      [3, 3],
      [1000, 1000],
    ] as const) {
      for (const style of ['catalog', 'centre', 'thirds'] as const) {
        const { box, scale } = placeProduct({ ...base, style, productWidth: w, productHeight: h });
        expect(inside(box, 1000)).toBe(true);
        expect(scale).toBeGreaterThan(0);
      }
    }
  });

  it('clamps a box that would cross the frame edge', () => {
    expect(inside(positionBox(700, 900, { ...base, productWidth: 700, productHeight: 900 }), 1000)).toBe(true);
  });
});
