import { describe, expect, it } from 'vitest';
import { keepFaintLoops } from './faint-parts.js';
import type { Picked } from './picked-object.js';
import type { SaliencyMap } from './saliency-map.js';

const SIZE = 200;
/** The bag's body: the model is sure of it. */
const BODY = { left: 60, right: 140, top: 90, bottom: 170 };
/** The strap: a half ring over the body's top, centre (100, 90), radius 30, 4 px thick. */
const inStrap = (x: number, y: number) => y < BODY.top && Math.abs(Math.hypot(x - 100, y - BODY.top) - 30) <= 2;
const inBody = (x: number, y: number) => x >= BODY.left && x < BODY.right && y >= BODY.top && y < BODY.bottom;

/** A tote as the model maps it: the body sure, and whatever `faintly` traces beside it, on a floor near 0. */
function tote(faintly: (x: number, y: number) => number): Picked {
  const mask = new Float32Array(SIZE * SIZE);
  const members = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const p = y * SIZE + x;
      members[p] = inBody(x, y) ? 1 : 0;
      mask[p] = members[p] ? 1 : Math.max(0.002, faintly(x, y));
    }
  const window = { x: 0, y: 0, width: SIZE, height: SIZE };
  const map: SaliencyMap = { mask, width: SIZE, height: SIZE, window, rgb: Buffer.alloc(SIZE * SIZE * 3) };
  return { map, members, confidence: 0.9 };
}

describe('keepFaintLoops', () => {
  it('keeps a strap the model traced faintly, fading along one side, and leaves the loop it closes open', () => {
    // 0.08 on the left, fading to 0.015 on the right, as a dark strap on dark pebbles.
    const picked = tote((x, y) => (inStrap(x, y) ? 0.015 + (0.065 * (130 - x)) / 60 : 0));
    const kept = keepFaintLoops(picked);
    const top = (BODY.top - 30) * SIZE + 100,
      leftLeg = (BODY.top - 10) * SIZE + Math.round(100 - Math.sqrt(30 ** 2 - 10 ** 2)),
      rightLeg = (BODY.top - 10) * SIZE + Math.round(100 + Math.sqrt(30 ** 2 - 10 ** 2)),
      inLoop = (BODY.top - 10) * SIZE + 100;
    for (const p of [top, leftLeg, rightLeg]) {
      expect(kept.members[p]).toBe(1);
      expect(kept.map.mask[p]).toBeGreaterThan(0.5);
    }
    expect(kept.members[inLoop]).toBe(0);
    expect(kept.map.mask[inLoop]).toBeLessThan(0.01);
    // The photo's own map is left as it was: the other objects are judged on it.
    expect(picked.map.mask[top]).toBeLessThan(0.1);
  });

  it('adds no cast shadow: a faint patch along the body closes no loop', () => {
    const picked = tote((x, y) => (x >= BODY.right && x < BODY.right + 40 && y >= 120 && y < BODY.bottom ? 0.12 : 0));
    expect(keepFaintLoops(picked)).toBe(picked);
  });

  it('adds no faint arc that hangs from one end only', () => {
    const picked = tote((x, y) => (inStrap(x, y) && x < 110 ? 0.08 : 0));
    expect(keepFaintLoops(picked)).toBe(picked);
  });

  it('adds no grout line that closes a loop larger than the object: that is a tile, not a handle', () => {
    // Out from the body's left side, up, across, down and back into its right side: grout around a tile the bag stands on.
    const grout = (x: number, y: number) =>
      (Math.abs(y - 130) <= 1 && ((x >= 32 && x < BODY.left) || (x >= BODY.right && x <= 167))) ||
      (Math.abs(x - 32) <= 1 && y >= 62 && y <= 130) ||
      (Math.abs(y - 62) <= 1 && x >= 32 && x <= 167) ||
      (Math.abs(x - 167) <= 1 && y >= 62 && y <= 130);
    const picked = tote((x, y) => (grout(x, y) ? 0.06 : 0));
    expect(keepFaintLoops(picked)).toBe(picked);
  });
});
