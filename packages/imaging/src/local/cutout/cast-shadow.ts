import { bytesFrom, weightedMeans } from './mask-ops.js';
import type { SplitGrid } from './geodesic-split.js';

/**
 * Whether a colour is a darker copy of the floor's, with the floor's own hue: a shadow cast on
 * that floor, not product. Both as 0..255 RGB. How far from the floor's hue a shadow may stray
 * follows the floor's brightness and, for a deep shadow, its own: a dark pixel's noise is small,
 * so the dark edge of a navy mug on blue-grey tiles, a hue away, is product.
 */
export function isCastShadow(colour: readonly [number, number, number], floor: readonly [number, number, number]) {
  const [r, g, b] = colour,
    [fr, fg, fb] = floor;
  const scale = (r * fr + g * fg + b * fb) / Math.max(1, fr * fr + fg * fg + fb * fb);
  if (scale < 0.25 || scale > 0.97) return false;
  const tolerance = Math.min(10 + 0.04 * Math.hypot(fr, fg, fb), 6 + 0.06 * Math.hypot(r, g, b));
  return Math.hypot(r - scale * fr, g - scale * fg, b - scale * fb) < tolerance;
}

/** How far around a pixel (share of the grid's long side) the floor beside an object is read: a plate's shadow is wide. */
const FLOOR_SPAN = 0.15;

/**
 * The region's pixels that are a shadow cast on the floor around it (1), the floor being the mean
 * colour of the pixels outside the region within FLOOR_SPAN. A pixel with no floor near it is not one.
 */
export function castShadowPixels(grid: SplitGrid, region: Uint8Array): Uint8Array {
  const { rgb, width, height } = grid;
  const outside = new Float32Array(bytesFrom(region, (v) => (v ? 0 : 1)));
  const floor = weightedMeans(
    rgb,
    3,
    outside,
    width,
    height,
    Math.max(1, Math.round(FLOOR_SPAN * Math.max(width, height))),
  );
  const shadow = new Uint8Array(width * height);
  for (let p = 0; p < shadow.length; p++) {
    if (!region[p] || Number.isNaN(floor[0]![p]!)) continue;
    const colour = [rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!] as const;
    if (isCastShadow(colour, [floor[0]![p]!, floor[1]![p]!, floor[2]![p]!])) shadow[p] = 1;
  }
  return shadow;
}
