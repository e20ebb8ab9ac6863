import { seededRandom } from './noise.js';
import type { SceneSpec } from './scene-spec.js';

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * One take of a scene: the seed moves the key light to one side or the other (and with it the
 * shadow and the product's side of the frame), shifts its warmth, pool and the camera's height a
 * little. Noise alone changes a plain sweep by under one level per pixel, which no seller would
 * call another picture; this keeps the scene (its wall, surface and props) and changes the shot.
 */
export function varyScene(spec: SceneSpec, seed: number): SceneSpec {
  const random = seededRandom(seed, `${spec.id}:take`);
  const side = random() < 0.5 ? -1 : 1;
  const { light } = spec;
  const azimuth = clamp(side * (Math.max(0.3, Math.abs(light.azimuth)) + (random() - 0.5) * 0.3), -1, 1);
  const horizonShift = spec.view === 'eye-level' ? (random() - 0.5) * 0.06 : 0;
  return {
    ...spec,
    horizon: clamp(spec.horizon + horizonShift, 0.3, 0.8),
    light: {
      ...light,
      azimuth,
      warmth: clamp(light.warmth + (random() - 0.5) * 0.24, -1, 1),
      key: light.key * (1 + (random() - 0.5) * 0.06),
      spot: clamp(light.spot + (random() - 0.5) * 0.4, 0, 1),
    },
    vignette: clamp(spec.vignette + (random() - 0.5) * 0.12, 0, 1),
  };
}
