import { describe, expect, it } from 'vitest';
import { refine } from './refine-alpha.js';

const W = 120,
  H = 120;

/** A green-grey floor with a red product block and, under it, the floor darkened by its contact shadow. */
function photo() {
  const data = Buffer.alloc(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 4;
      const productHere = x >= 40 && x < 80 && y >= 30 && y < 80;
      const shadowHere = x >= 34 && x < 86 && y >= 80 && y < 90;
      const rgb = productHere ? [200, 30, 40] : shadowHere ? [54, 77, 43] : [108, 154, 86];
      data.set([...rgb, 255], o);
    }
  }
  return { data, width: W, height: H, hasAlpha: false, sourceFormat: 'png' };
}

describe('refine', () => {
  it("drops the source photo's tinted contact shadow that the model half kept, and keeps the product", () => {
    // The model is sure of the product and half sure (0.7) of the shadow band at its foot.
    const soft = new Uint8Array(W * H);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        if (x >= 40 && x < 80 && y >= 30 && y < 80) soft[y * W + x] = 255;
        else if (x >= 34 && x < 86 && y >= 80 && y < 90) soft[y * W + x] = 180;
      }
    const { mask } = refine(photo(), soft);
    let shadowKept = 0,
      productKept = 0;
    for (let y = 80; y < 90; y++) for (let x = 34; x < 86; x++) shadowKept += mask[y * W + x]!;
    for (let y = 32; y < 78; y++) for (let x = 42; x < 78; x++) productKept += mask[y * W + x]!;
    expect(shadowKept).toBe(0);
    expect(productKept).toBe(36 * 46);
  });
});
