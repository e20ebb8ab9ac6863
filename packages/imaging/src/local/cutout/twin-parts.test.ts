import { describe, expect, it } from 'vitest';
import { salientGroups, type SaliencyMap } from './saliency-map.js';

const SIZE = 200;

/** A map whose model marks the given shapes, each pixel coloured by `colour(x, y)`. */
function mapOf(inside: (x: number, y: number) => boolean, colour: (x: number, y: number) => [number, number, number]) {
  const mask = new Float32Array(SIZE * SIZE);
  const rgb = Buffer.alloc(SIZE * SIZE * 3, 120);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      if (!inside(x, y)) continue;
      mask[y * SIZE + x] = 1;
      rgb.set(colour(x, y), (y * SIZE + x) * 3);
    }
  }
  const map: SaliencyMap = { mask, width: SIZE, height: SIZE, window: { x: 0, y: 0, width: SIZE, height: SIZE }, rgb };
  return map;
}

/** A lens: an ellipse flattened on its inner top corner, mirrored for the right one. */
function lens(cx: number, mirror: boolean) {
  return (x: number, y: number) => {
    const dx = (x - cx) / 30,
      dy = (y - 100) / 26;
    const inner = mirror ? x < cx - 18 : x > cx + 18;
    return dx * dx + dy * dy <= 1 && !(inner && y < 86);
  };
}

const BLUE: [number, number, number] = [40, 60, 200],
  SKY: [number, number, number] = [150, 180, 240];

describe('twin parts', () => {
  it('takes two mirror-image lenses side by side as one product though their reflections differ and no bridge joins them', () => {
    // Left lens mostly deep blue with a sky reflection on its left third, the right one the other way round.
    const left = lens(60, false),
      right = lens(140, true);
    const map = mapOf(
      (x, y) => left(x, y) || right(x, y),
      (x) => (x < 100 ? (x < 50 ? SKY : BLUE) : x > 130 ? SKY : BLUE),
    );
    const { groups } = salientGroups(map);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.members.size).toBe(2);
  });

  it('keeps apart two things of the same colours side by side whose outlines differ (a lens beside a bar)', () => {
    const left = lens(60, false);
    const bar = (x: number, y: number) => x >= 112 && x < 172 && y >= 92 && y < 120;
    const map = mapOf(
      (x, y) => left(x, y) || bar(x, y),
      () => BLUE,
    );
    expect(salientGroups(map).groups).toHaveLength(2);
  });

  it('keeps apart mirror images that share no colour (a red lens beside a blue one is two products)', () => {
    const left = lens(60, false),
      right = lens(140, true);
    const map = mapOf(
      (x, y) => left(x, y) || right(x, y),
      (x) => (x < 100 ? [220, 30, 30] : BLUE),
    );
    expect(salientGroups(map).groups).toHaveLength(2);
  });
});
