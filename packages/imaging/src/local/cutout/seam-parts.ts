import type { SaliencyMap } from './saliency-map.js';
import type { Extent } from './twin-parts.js';

/** Parts this close (a share of the mask's short side) may share a seam… */
const SEAM_REACH = 0.015;
/** …when it runs along this share of the smaller part's side that faces the other… */
const SEAM_SPAN = 0.6;
/** …and the model gives the pixels between them at least this: a ring of the product, not a gap of floor (about 0). */
const SEAM_FLOOR = 0.1;

/**
 * Whether the smaller of two components sits against the larger along most of the side it turns
 * to it, across pixels the model is half sure of: a bottle's cap on its body, cut from it by the
 * dark ring under the cap (ISNet marks it 0.15–0.45). Such a part belongs to the product whatever
 * its size or colour (a white cap on an orange drink). A pebble beside a shoe touches it at a
 * point, or lies beside it across floor the model gives nothing.
 */
export function sharedSeam(
  { mask, width, height }: Pick<SaliencyMap, 'mask' | 'width' | 'height'>,
  labels: Int32Array,
  [a, sa]: readonly [number, Extent],
  [b, sb]: readonly [number, Extent],
  sizes: readonly number[],
): boolean {
  const reach = Math.max(2, Math.round(SEAM_REACH * Math.min(width, height)));
  if (sa.minX - reach > sb.maxX || sb.minX - reach > sa.maxX || sa.minY - reach > sb.maxY || sb.minY - reach > sa.maxY)
    return false;
  const [small, large] = sizes[a - 1]! <= sizes[b - 1]! ? ([[a, sa], b] as const) : ([[b, sb], a] as const);
  const [label, box] = small;
  const columns = new Uint8Array(box.maxX - box.minX + 1),
    rows = new Uint8Array(box.maxY - box.minY + 1);
  // A part's pixel meets the other part when one lies straight above, below or beside it within
  // reach, with nothing the model gives up on in between.
  const meets = (x: number, y: number, dx: number, dy: number) => {
    for (let step = 1; step <= reach; step++) {
      const nx = x + dx * step,
        ny = y + dy * step;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) return false;
      const at = labels[ny * width + nx]!;
      if (at === large) return true;
      if (at === label || mask[ny * width + nx]! < SEAM_FLOOR) return false;
    }
    return false;
  };
  for (let y = box.minY; y <= box.maxY; y++) {
    for (let x = box.minX; x <= box.maxX; x++) {
      if (labels[y * width + x] !== label) continue;
      if (!columns[x - box.minX] && (meets(x, y, 0, -1) || meets(x, y, 0, 1))) columns[x - box.minX] = 1;
      if (!rows[y - box.minY] && (meets(x, y, -1, 0) || meets(x, y, 1, 0))) rows[y - box.minY] = 1;
    }
  }
  const share = (seen: Uint8Array) => seen.reduce((sum, v) => sum + v, 0) / seen.length;
  return Math.max(share(columns), share(rows)) >= SEAM_SPAN;
}
