import type { RawImage } from '../../input/normalise-input.js';
import type { Point } from '../../types.js';
import { castShadowPixels } from './cast-shadow.js';
import { farthestSure, gridOf, gridPixel, SOLID, SURE } from './honour-taps.js';
import { boundingBox, bytesFrom, grow, interiorDepth } from './mask-ops.js';

/** Around the farthest sure pixel, the most interior one is looked for within this share of the photo's short side. */
const INTERIOR_REACH = 0.15;

/**
 * Where the seller's product is when they only said what it is not: a drop tap on an object the
 * model drew fused with the product (a tote in front of a plate). The product is taken to be the
 * object's part farthest from every drop tap, a shadow on the floor excepted (the plate's shadow is
 * the plate's), from its most interior pixel nearby, so that looking from there the model sees the
 * product whole rather than a corner of it. Null when no drop tap is on the object or nothing sure
 * is left once the shadow is set aside.
 */
export async function impliedKeep(image: RawImage, soft: Uint8Array, drops: readonly Point[]): Promise<Point | null> {
  const found = boundingBox(soft, image.width, image.height, SOLID);
  if (!found) return null;
  const box = grow(found, 2, image.width, image.height);
  const grid = await gridOf(image, soft, box);
  const { width, height } = grid;
  const region = bytesFrom(grid.soft, (v) => (v >= SOLID ? 1 : 0));
  const dropSeeds = drops.map((tap) => gridPixel(tap, image, box, grid)).filter((p) => p >= 0 && region[p]);
  const shadow = castShadowPixels(grid, region);
  const [far] = dropSeeds.length ? farthestSure(grid, region, dropSeeds, shadow) : [];
  if (far === undefined) return null;
  const depth = interiorDepth(
    bytesFrom(grid.soft, (v, p) => (v >= SURE && !shadow[p] ? 1 : 0)),
    width,
    height,
  );
  const reach = Math.round((INTERIOR_REACH * Math.min(image.width, image.height) * width) / box.width);
  const fx = far % width,
    fy = (far - fx) / width;
  let deepest = far;
  for (let y = Math.max(0, fy - reach); y <= Math.min(height - 1, fy + reach); y++)
    for (let x = Math.max(0, fx - reach); x <= Math.min(width - 1, fx + reach); x++) {
      const p = y * width + x;
      if ((x - fx) ** 2 + (y - fy) ** 2 <= reach * reach && depth[p]! > depth[deepest]!) deepest = p;
    }
  const x = deepest % width,
    y = (deepest - x) / width;
  return {
    x: (box.x + ((x + 0.5) * box.width) / width) / image.width,
    y: (box.y + ((y + 0.5) * box.height) / height) / image.height,
  };
}
