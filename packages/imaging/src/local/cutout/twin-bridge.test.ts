import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../input/normalise-input.js';
import type { Picked } from './picked-object.js';
import type { SaliencyMap } from './saliency-map.js';
import { bridgeFaintTwins, bridgeTwins } from './twin-bridge.js';

const WIDTH = 320,
  HEIGHT = 200;
const FRAME: [number, number, number] = [205, 205, 200];

/** Seeded blue-grey tiles with pale grout, the kind of floor a pale bridge vanishes into for the model. */
function tiles(x: number, y: number, random: () => number): [number, number, number] {
  if (x % 40 < 3 || y % 40 < 3) return [170, 160, 140];
  const grain = (random() - 0.5) * 24;
  return [110 + grain, 125 + grain, 150 + grain];
}

interface Glasses {
  /** Draw the bridge between the frames. */
  bridge: boolean;
  /** The model drew the bridge's lowest two rows: a neck joins the lenses into one object. */
  sliver?: boolean;
  floor?: (x: number, y: number, random: () => number) => [number, number, number];
}

/** Sunglasses seen from the front: two blue lenses in pale frames, a pale bridge across the top of the gap. */
function glasses({ bridge, sliver = false, floor = tiles }: Glasses): {
  image: RawImage;
  soft: Uint8Array;
  bridgePixel: number;
  gapPixel: number;
} {
  let state = 5;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const data = new Uint8Array(WIDTH * HEIGHT * 4);
  const soft = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const p = y * WIDTH + x;
      const ring = Math.min(Math.hypot(x - 100, y - 100), Math.hypot(x - 220, y - 100));
      let colour = floor(x, y, random);
      if (ring <= 42) colour = [40, 60, 200];
      if (ring > 42 && ring <= 50) colour = FRAME;
      if (bridge && x > 135 && x < 185 && y >= 72 && y < 80 && ring > 42) colour = FRAME;
      data.set([...colour, 255], p * 4);
      // The model draws the lenses and their frames, not the bridge.
      if (ring <= 50 || (sliver && x > 135 && x < 185 && y >= 78 && y < 80)) soft[p] = 255;
    }
  }
  return {
    image: { data, width: WIDTH, height: HEIGHT, hasAlpha: false } as RawImage,
    soft,
    bridgePixel: 76 * WIDTH + 160,
    gapPixel: 110 * WIDTH + 160,
  };
}

describe('bridgeTwins', () => {
  it('adds the pale bridge the model left out between two lenses, and none of the floor between them', () => {
    const { image, soft, bridgePixel, gapPixel } = glasses({ bridge: true });
    const bridged = bridgeTwins(image, soft);
    expect(bridged[bridgePixel]).toBe(255);
    expect(bridged[gapPixel]).toBe(0);
    // Every pixel added is the bridge's (rows 72..79 between the frames): nothing of the floor comes along.
    const added: number[] = [];
    for (let p = 0; p < soft.length; p++) if (bridged[p] !== soft[p]) added.push(Math.floor(p / WIDTH));
    expect(added.length).toBeGreaterThan(200);
    expect(added.every((row) => row >= 72 && row < 80)).toBe(true);
  });

  it('completes a bridge the model drew only a sliver of, though the sliver joins the lenses into one object', () => {
    const { image, soft, bridgePixel, gapPixel } = glasses({ bridge: true, sliver: true });
    const bridged = bridgeTwins(image, soft);
    expect(soft[bridgePixel]).toBe(0);
    expect(bridged[bridgePixel]).toBe(255);
    expect(bridged[gapPixel]).toBe(0);
    for (let p = 0; p < soft.length; p++) if (bridged[p] !== soft[p]) expect(Math.floor(p / WIDTH)).toBeLessThan(80);
  });

  it('adds nothing between twins that no bridge joins (a pair of earrings, of shoes)', () => {
    const { image, soft } = glasses({ bridge: false });
    expect(Buffer.from(bridgeTwins(image, soft)).equals(Buffer.from(soft))).toBe(true);
  });

  it("adds nothing when the floor between the twins is the frames' own colour: a bridge cannot be told from it", () => {
    const { image, soft } = glasses({ bridge: true, floor: () => FRAME });
    expect(Buffer.from(bridgeTwins(image, soft)).equals(Buffer.from(soft))).toBe(true);
  });
});

/**
 * The model's map of the same glasses: the lenses and frames sure (1), the bridge across the top
 * of the gap traced faintly (`bridge`), the floor around them near 0 (`floor`).
 */
function faintlyTraced(bridge: number, floor = 0.004): Picked {
  const mask = new Float32Array(WIDTH * HEIGHT);
  const members = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++) {
      const p = y * WIDTH + x;
      const ring = Math.min(Math.hypot(x - 100, y - 100), Math.hypot(x - 220, y - 100));
      mask[p] =
        ring <= 50 ? 1 : x > 135 && x < 185 && y >= 72 && y < 80 ? bridge * (y === 72 || y === 79 ? 0.4 : 1) : floor;
      members[p] = ring <= 50 ? 1 : 0;
    }
  const window = { x: 0, y: 0, width: WIDTH, height: HEIGHT };
  const map: SaliencyMap = { mask, width: WIDTH, height: HEIGHT, window, rgb: Buffer.alloc(WIDTH * HEIGHT * 3) };
  return { map, members, confidence: 0.9 };
}

describe('bridgeFaintTwins', () => {
  it("makes product of the bridge the model traced faintly between two lenses, up to the bridge's own edge", () => {
    const picked = faintlyTraced(0.12);
    const bridged = bridgeFaintTwins(picked);
    const middle = 76 * WIDTH + 160,
      rim = 72 * WIDTH + 160,
      below = 90 * WIDTH + 160;
    expect(bridged.members[middle]).toBe(1);
    expect(bridged.map.mask[middle]).toBeGreaterThanOrEqual(0.99);
    // Its rim, at 0.4 of the bridge's height, stays under the 0.5 that makes product; the floor below is not touched.
    expect(bridged.map.mask[rim]).toBeLessThan(0.9);
    expect(bridged.map.mask[below]).toBe(picked.map.mask[below]);
    expect(bridged.members[below]).toBe(0);
    // The photo's own map is left as it was: the other objects are judged on it.
    expect(picked.map.mask[middle]).toBeCloseTo(0.12);
  });

  it('adds nothing where the model traced nothing between the twins', () => {
    const picked = faintlyTraced(0.01);
    expect(bridgeFaintTwins(picked)).toBe(picked);
  });

  it('adds nothing when a faint haze fills the whole gap: that is the floor the twins stand on', () => {
    const picked = faintlyTraced(0.12, 0.05);
    expect(bridgeFaintTwins(picked)).toBe(picked);
  });
});
