import type { NoiseField, Random } from './noise.js';

/** What the scene painters share: easing, blending and the seeded noise a scene is drawn from. */

export const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};
export const mix = (a: number, b: number, t: number) => a + (b - a) * t;

export interface Fields {
  warp: NoiseField;
  detail: NoiseField;
  random: Random;
  seed: number;
}
