import { NoiseField, grain, seededRandom } from './noise.js';
import { mix, smoothstep, type Fields } from './paint.js';
import { paintPaper, paperShapes } from './paper-cutouts.js';
import { renderWall, sampleWall } from './render-wall.js';
import type { Rgb, SceneSpec } from './scene-spec.js';
import { surfaceColour } from './surface-colour.js';

export interface RenderedScene {
  /** RGB, 8 bits, size × size (clamped, so lighting can overshoot safely). */
  rgb: Uint8ClampedArray;
  size: number;
  /** Row where surface meets wall (eye-level), in pixels; 0 for flat-lay and seamless views. */
  horizonY: number;
  /** Row the product's base should rest on, in pixels. */
  floorY: number;
  /** Typical colour of the surface near the product, used to tint shadows. */
  floorColour: Rgb;
}

/** Where products rest, as a share of the frame height, per view. */
export function floorLine(spec: SceneSpec): number {
  if (spec.view === 'eye-level') return spec.horizon + (1 - spec.horizon) * 0.55;
  return spec.view === 'seamless' ? 0.8 : 0.78;
}

/**
 * Renders a scene procedurally; the same spec, size and seed always give the same pixels.
 * Callers render at half the shot size and enlarge: the scene is meant to look shot with a
 * shallow depth of field, and it quarters the per-pixel work.
 */
export function renderScene(spec: SceneSpec, size: number, seed: number): RenderedScene {
  const random = seededRandom(seed, spec.id);
  const fields: Fields = {
    warp: new NoiseField(random, { frequency: 2.5 }),
    detail: new NoiseField(random, { frequency: 6, octaves: 3 }),
    random,
    seed,
  };
  const wallN = Math.max(128, Math.round(size / 3));
  const wall = renderWall(spec, wallN, fields);
  const shapes = spec.props.includes('paper-cutouts') ? paperShapes(random) : [];
  const horizonY = spec.view === 'eye-level' ? spec.horizon * size : 0;
  const floorY = floorLine(spec) * size;
  const rgb = new Uint8ClampedArray(size * size * 3);
  const colour = [0, 0, 0],
    surface = [0, 0, 0];
  const { light } = spec;
  const spotX = 0.5 - light.azimuth * 0.08,
    spotY = floorLine(spec) - 0.22;
  const aa = 1.5 / size;
  const { surface: s } = spec;
  for (let py = 0; py < size; py++) {
    const y = py / size;
    for (let px = 0; px < size; px++) {
      const x = px / size;
      if (spec.view === 'flat-lay') {
        surfaceColour(s.kind, s.base, s.accent, (x - 0.5) * 3, y * 3, px, py, fields, colour);
        paintPaper(shapes, x, y, colour);
      } else {
        sampleWall(wall, wallN, x, y, colour);
        if (spec.view === 'seamless' && s.kind === 'none') {
          const t = smoothstep(spec.horizon - 0.12, spec.horizon + 0.18, y);
          for (let c = 0; c < 3; c++) colour[c] = mix(colour[c]!, s.base[c]!, t);
        } else if (spec.view === 'eye-level' && y > spec.horizon - aa) {
          const d = Math.max(0.0005, (y - spec.horizon) / (1 - spec.horizon));
          const z = 1 / (d * 0.92 + 0.08);
          surfaceColour(s.kind, s.base, s.accent, (x - 0.5) * z * 1.6, z, px, py, fields, surface);
          // Far surface melts into haze and the wall; the 1.5 px ramp anti-aliases the table edge.
          const haze = Math.pow(1 - d, 10) * 0.45;
          const edge = smoothstep(spec.horizon - aa, spec.horizon + aa, y);
          for (let c = 0; c < 3; c++)
            colour[c] = mix(
              colour[c]!,
              mix(surface[c]!, colour[c]!, haze) * (0.9 + 0.1 * smoothstep(0, 0.04, d)),
              edge,
            );
        }
      }
      const r = Math.sqrt((x - spotX) ** 2 + ((y - spotY) * 1.3) ** 2);
      let lum =
        light.key * (1 + light.spot * 0.16 * Math.exp(-(r * r) / 0.09)) * (1 + light.azimuth * (0.5 - x) * -0.1);
      lum *= 1 - spec.vignette * smoothstep(0.3, 0.95, Math.sqrt((x - 0.5) ** 2 + (y - 0.5) ** 2) * 1.2);
      const dither = grain(px, py, seed + 11) * 2.2;
      const o = (py * size + px) * 3;
      rgb[o] = colour[0]! * lum * (1 + light.warmth * 0.05) + dither;
      rgb[o + 1] = colour[1]! * lum * (1 + light.warmth * 0.01) + dither;
      rgb[o + 2] = colour[2]! * lum * (1 - light.warmth * 0.07) + dither;
    }
  }
  return { rgb, size, horizonY, floorY, floorColour: floorColourOf(rgb, size, floorY) };
}

function floorColourOf(rgb: Uint8ClampedArray, size: number, floorY: number): Rgb {
  const y = Math.min(size - 1, Math.round(floorY));
  const sum = [0, 0, 0];
  for (let x = Math.round(size * 0.3); x < Math.round(size * 0.7); x++)
    for (let c = 0; c < 3; c++) sum[c]! += rgb[(y * size + x) * 3 + c]!;
  const n = Math.round(size * 0.7) - Math.round(size * 0.3);
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}
