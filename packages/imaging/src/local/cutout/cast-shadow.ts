import { boxSum } from './mask-ops.js';
import type { SplitGrid } from './geodesic-split.js';

/**
 * Whether a colour is a darker copy of the floor's, with the floor's own hue: a shadow cast on
 * that floor, not product. Both as 0..255 RGB.
 */
export function isCastShadow(colour: readonly [number, number, number], floor: readonly [number, number, number]) {
  const [r, g, b] = colour,
    [fr, fg, fb] = floor;
  const scale = (r * fr + g * fg + b * fb) / Math.max(1, fr * fr + fg * fg + fb * fb);
  if (scale < 0.25 || scale > 0.97) return false;
  return Math.hypot(r - scale * fr, g - scale * fg, b - scale * fb) < 10 + 0.04 * Math.hypot(fr, fg, fb);
}

/** How far around a pixel (share of the grid's long side) the floor beside an object is read: a plate's shadow is wide. */
const FLOOR_SPAN = 0.15;

/**
 * The region's pixels that are a shadow cast on the floor around it (1), the floor being the mean
 * colour of the pixels outside the region within FLOOR_SPAN. A pixel with no floor near it is not one.
 */
export function castShadowPixels(grid: SplitGrid, region: Uint8Array): Uint8Array {
  const { rgb, width, height } = grid;
  const n = width * height;
  const outside = Float32Array.from(region, (v) => (v ? 0 : 1));
  const span = Math.max(1, Math.round(FLOOR_SPAN * Math.max(width, height)));
  const counts = boxSum(outside, width, height, span);
  const sums = [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let p = 0; p < n; p++) plane[p] = outside[p]! * rgb[p * 3 + c]!;
    return boxSum(plane, width, height, span);
  });
  const shadow = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    const count = counts[p]!;
    if (!region[p] || count < 0.5) continue;
    const floor = [sums[0]![p]! / count, sums[1]![p]! / count, sums[2]![p]! / count] as const;
    if (isCastShadow([rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!], floor)) shadow[p] = 1;
  }
  return shadow;
}
