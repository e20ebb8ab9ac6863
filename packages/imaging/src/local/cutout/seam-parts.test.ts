import { describe, expect, it } from 'vitest';
import { salientGroups, type SaliencyMap } from './saliency-map.js';

const SIZE = 200;
const ORANGE: [number, number, number] = [220, 130, 60],
  WHITE: [number, number, number] = [240, 238, 232],
  GREY: [number, number, number] = [130, 130, 135];

/**
 * A map whose model marks the given shapes, each pixel coloured by `colour(x, y)`, and is half
 * sure (0.4) of the pixels `half(x, y)` says.
 */
function mapOf(
  inside: (x: number, y: number) => boolean,
  colour: (x: number, y: number) => [number, number, number],
  half: (x: number, y: number) => boolean = () => false,
) {
  const mask = new Float32Array(SIZE * SIZE);
  const rgb = Buffer.alloc(SIZE * SIZE * 3, 200);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      if (half(x, y)) mask[y * SIZE + x] = 0.4;
      if (!inside(x, y)) continue;
      mask[y * SIZE + x] = 1;
      rgb.set(colour(x, y), (y * SIZE + x) * 3);
    }
  }
  const map: SaliencyMap = { mask, width: SIZE, height: SIZE, window: { x: 0, y: 0, width: SIZE, height: SIZE }, rgb };
  return map;
}

/** An orange bottle's body, x 70–130 and y 60–180. */
const body = (x: number, y: number) => x >= 70 && x < 130 && y >= 60 && y < 180;

describe('shared seams', () => {
  it('takes a white cap the model split from an orange bottle by the ring under it as part of the bottle', () => {
    // The cap, x 80–120, y 40–58: a 2 px ring the model is only half sure of between it and the body.
    const cap = (x: number, y: number) => x >= 80 && x < 120 && y >= 40 && y < 58;
    const ring = (x: number, y: number) => x >= 80 && x < 120 && y >= 58 && y < 60;
    const capped = (half: (x: number, y: number) => boolean) =>
      salientGroups(
        mapOf(
          (x, y) => body(x, y) || cap(x, y),
          (_x, y) => (y < 58 ? WHITE : ORANGE),
          half,
        ),
      ).groups;
    expect(capped(ring)).toHaveLength(1);
    expect(capped(ring)[0]!.members.size).toBe(2);
    // The same cap with floor the model gives nothing between them is another thing on the table.
    expect(capped(() => false)).toHaveLength(2);
  });

  it('keeps apart a small grey pebble that touches the bottle at its corner', () => {
    // A 16 px pebble off the body's lower right corner, 2 px away diagonally, on half-sure floor.
    const pebble = (x: number, y: number) => (x - 136) ** 2 + (y - 186) ** 2 <= 64;
    expect(
      salientGroups(
        mapOf(
          (x, y) => body(x, y) || pebble(x, y),
          (x, y) => (body(x, y) ? ORANGE : GREY),
          (x, y) => x >= 128 && y >= 178,
        ),
      ).groups,
    ).toHaveLength(2);
  });

  it('keeps apart a small grey pebble lying along the bottle’s side across floor the model gives nothing', () => {
    const pebble = (x: number, y: number) => x >= 132 && x < 148 && y >= 150 && y < 170;
    expect(
      salientGroups(
        mapOf(
          (x, y) => body(x, y) || pebble(x, y),
          (x, y) => (body(x, y) ? ORANGE : GREY),
        ),
      ).groups,
    ).toHaveLength(2);
  });
});
