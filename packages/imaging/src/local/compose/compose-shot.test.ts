import sharp, { type OverlayOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { shadowOverlay } from './compose-shot.js';

const N = 64;
const SIZE = 256;

/** A shadow-like layer: one tint everywhere, soft round pools of opacity at the given centres. */
function layerWithPools(centres: [number, number][]): Buffer {
  const layer = Buffer.alloc(N * N * 4);
  for (let y = 0; y < N; y++) {
    for (let x = 0; x < N; x++) {
      const o = (y * N + x) * 4;
      layer.set([40, 32, 24], o);
      const alpha = Math.max(...centres.map(([cx, cy]) => 210 - Math.hypot(x - cx, y - cy) * 24));
      layer[o + 3] = Math.max(0, Math.round(alpha));
    }
  }
  return layer;
}

async function compositeOnFloor(overlays: OverlayOptions[]): Promise<Buffer> {
  return sharp({ create: { width: SIZE, height: SIZE, channels: 3, background: '#d8cfc0' } })
    .composite(overlays)
    .raw()
    .toBuffer();
}

describe('shadowOverlay', () => {
  it.each([
    ['in the middle of the frame', [[30, 40]] as [number, number][]],
    [
      'touching the frame edges',
      [
        [2, 61],
        [62, 3],
      ] as [number, number][],
    ],
  ])(
    'enlarges only the shaded part of a layer %s, to exactly the pixels the whole layer gives',
    async (_where, centres) => {
      const layer = layerWithPools(centres);
      const whole = await sharp(layer, { raw: { width: N, height: N, channels: 4 } })
        .resize(SIZE, SIZE, { kernel: 'cubic' })
        .raw()
        .toBuffer();
      const expected = await compositeOnFloor([
        { input: whole, raw: { width: SIZE, height: SIZE, channels: 4 }, left: 0, top: 0 },
      ]);

      const overlay = await shadowOverlay(layer, N, SIZE);

      expect(overlay).not.toBeNull();
      expect((await compositeOnFloor([overlay!])).equals(expected)).toBe(true);
      if (centres.length === 1) expect(overlay!.raw!.width * overlay!.raw!.height).toBeLessThan((SIZE * SIZE) / 4);
    },
  );

  it('is nothing for a layer with no shade at all', async () => {
    expect(await shadowOverlay(Buffer.alloc(N * N * 4), N, SIZE)).toBeNull();
  });
});
