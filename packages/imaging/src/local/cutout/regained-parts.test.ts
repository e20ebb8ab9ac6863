import { describe, expect, it } from 'vitest';
import { regainedFromFused } from './regained-parts.js';

const W = 200,
  H = 200;
const image = { data: Buffer.alloc(W * H * 4), width: W, height: H, hasAlpha: false, sourceFormat: 'png' };

type Rect = { x: number; y: number; w: number; h: number };
const inside = (r: Rect, x: number, y: number) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;

function maskOf(keep: (x: number, y: number) => boolean): Uint8Array {
  const mask = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (keep(x, y)) mask[y * W + x] = 255;
  return mask;
}

function count(mask: Uint8Array, r: Rect): number {
  let n = 0;
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) if (mask[y * W + x]! >= 128) n++;
  return n;
}

// A bottle beside a mug of its colour, drawn by the whole photo's run as one object; a ring handle on the bottle's far side.
const bottle = { x: 100, y: 30, w: 40, h: 150 };
const bottleTop = { x: 100, y: 30, w: 40, h: 40 };
const mug = { x: 30, y: 90, w: 70, h: 90 };
const handle = { x: 140, y: 100, w: 30, h: 40 };
const hole = { x: 148, y: 108, w: 14, h: 24 };
// Where the fused object itself is open inside the handle: the floor between the neighbour's edge and the handle.
const holeCore = { x: 152, y: 115, w: 6, h: 10 };
const dropOnMug = [{ x: 0.3, y: 0.65 }];

describe('regainedFromFused', () => {
  it("adds the product's part a window left out (a bottle's top) and leaves out what the drop tap is on", () => {
    const fused = maskOf((x, y) => inside(bottle, x, y) || inside(mug, x, y));
    const picked = maskOf((x, y) => inside(bottle, x, y) && !inside(bottleTop, x, y));
    const out = regainedFromFused(image, picked, fused, dropOnMug);
    expect(count(out, bottleTop)).toBe(bottleTop.w * bottleTop.h);
    // The mug, clear of the bottle's rim (1.2% of the short side: 2 px), stays out.
    expect(count(out, { x: 30, y: 90, w: 67, h: 90 })).toBe(0);
  });

  it('leaves the hole a handle closes round out, though the fused object fills it with the neighbour seen through', () => {
    const fused = maskOf(
      (x, y) => inside(bottle, x, y) || inside(mug, x, y) || (inside(handle, x, y) && !inside(holeCore, x, y)),
    );
    const picked = maskOf(
      (x, y) => (inside(bottle, x, y) && !inside(bottleTop, x, y)) || (inside(handle, x, y) && !inside(hole, x, y)),
    );
    const out = regainedFromFused(image, picked, fused, dropOnMug);
    expect(count(out, bottleTop)).toBe(bottleTop.w * bottleTop.h);
    expect(count(out, { x: hole.x + 3, y: hole.y + 3, w: hole.w - 6, h: hole.h - 6 })).toBe(0);
  });

  it('changes nothing when no drop tap is on the fused object', () => {
    const fused = maskOf((x, y) => inside(bottle, x, y) || inside(mug, x, y));
    const picked = maskOf((x, y) => inside(bottle, x, y) && !inside(bottleTop, x, y));
    expect(regainedFromFused(image, picked, fused, [{ x: 0.05, y: 0.05 }])).toEqual(picked);
  });
});
