import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import { isCastShadow } from './cast-shadow.js';
import { guidedFilter } from './guided-filter.js';
import { boundingBox, clamp, cropPlane, dilate, erode, grow, weightedMeans } from './mask-ops.js';
import type { Segmentation } from './segment.js';

/**
 * Alpha at the photo's resolution: the colour guided filter snaps the model's soft outline to the
 * photo's edges in a band around it; inside the band product pixels are copied untouched, edge
 * pixels lose the old background's colour, and shadow the product casts is dropped.
 */
export function refine(image: RawImage, soft: Uint8Array): Segmentation {
  const { width, height, data } = image;
  // Cleared, not a copy of the photo: a transparent pixel keeps none of the seller's room (and compresses to nothing).
  const cutout = Buffer.alloc(data.length);
  const mask = new Uint8Array(width * height);
  const found = boundingBox(soft, width, height, 128);
  if (!found) throw new EmptyImageError();
  const side = Math.min(width, height);
  const radius = Math.max(2, Math.round(side / 300));
  const margin = 4 * radius + 4;
  const box = grow(found, margin, width, height);
  const region = cropPlane<Uint8Array>(data, width, box, 4);
  const p = new Float32Array(box.width * box.height);
  for (let y = 0; y < box.height; y++)
    for (let x = 0; x < box.width; x++) p[y * box.width + x] = soft[(box.y + y) * width + box.x + x]! / 255;
  const alpha = bandAlpha(region, p, box.width, box.height, radius);
  unmixEdges(region, alpha, box.width, box.height, radius);
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      const i = y * box.width + x,
        o = (box.y + y) * width + box.x + x;
      const a = Math.round(alpha[i]! * 255);
      if (!a) continue;
      cutout[o * 4] = region[i * 4]!;
      cutout[o * 4 + 1] = region[i * 4 + 1]!;
      cutout[o * 4 + 2] = region[i * 4 + 2]!;
      cutout[o * 4 + 3] = a;
      mask[o] = a >= 128 ? 1 : 0;
    }
  }
  if (!boundingBox(mask, width, height)) throw new EmptyImageError();
  return { cutout, mask, width, height };
}

function bandAlpha(region: Uint8Array, p: Float32Array, width: number, height: number, radius: number): Float32Array {
  const n = width * height;
  const guide: [Float32Array, Float32Array, Float32Array] = [
    new Float32Array(n),
    new Float32Array(n),
    new Float32Array(n),
  ];
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) guide[c]![i] = region[i * 4 + c]! / 255;
  const q = guidedFilter(guide, p, width, height, radius, 1e-3);
  const solid = new Uint8Array(n);
  for (let i = 0; i < n; i++) solid[i] = p[i]! >= 0.5 ? 1 : 0;
  const inside = erode(solid, width, height, radius);
  const reach = dilate(solid, width, height, 2 * radius);
  // The nearby background: pixels beyond the product's reach.
  const beyond = new Float32Array(n);
  for (let i = 0; i < n; i++) beyond[i] = reach[i] ? 0 : 1;
  const background = weightedMeans(region, 4, beyond, width, height, 4 * radius);
  const alpha = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (inside[i] && p[i]! >= 0.9) alpha[i] = 1;
    else if (!reach[i] && p[i]! < 0.5) alpha[i] = 0;
    else alpha[i] = p[i]! < 0.5 && castShadow(region, i, background) ? 0 : clamp((q[i]! - 0.08) / 0.84, 0, 1);
  }
  peelShadow(region, alpha, p, background, width, height);
  return alpha;
}

/** The model is this sure of a pixel it calls product before a shadow-like colour cannot take it away. */
const SURE_PRODUCT = 0.9;

/**
 * The model often keeps the source photo's contact shadow as a rim of product at the foot: it is
 * half sure of it, and it is the floor's own colour, darker. Peeled from the background inward:
 * a pixel the model is not sure of, in the lower half of the mask, that is a darker copy of the
 * floor beside it, goes when it touches background. The scene draws its own neutral shadow.
 */
function peelShadow(
  region: Uint8Array,
  alpha: Float32Array,
  p: Float32Array,
  background: Float32Array[],
  width: number,
  height: number,
): void {
  let top = height,
    bottom = -1;
  for (let i = 0; i < alpha.length; i++) {
    if (alpha[i]! < 0.5) continue;
    const y = (i / width) | 0;
    if (y < top) top = y;
    bottom = y;
  }
  if (bottom < 0) return;
  const lower = Math.floor((top + bottom) / 2) * width;
  // Deeper than the floor beside the mask reaches, a peeled pixel compares with the floor its neighbour was compared with.
  const floorOf = new Int32Array(alpha.length).fill(-1);
  const queue: number[] = [];
  for (let i = lower; i < alpha.length; i++) {
    if (alpha[i] !== 0) continue;
    floorOf[i] = i;
    queue.push(i);
  }
  while (queue.length) {
    const i = queue.pop()!;
    const x = i % width;
    for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
      if (j < lower || j >= alpha.length || alpha[j] === 0 || p[j]! >= SURE_PRODUCT) continue;
      const floor = Number.isNaN(background[0]![j]!) ? floorOf[i]! : j;
      if (!castShadow(region, j, background, floor)) continue;
      alpha[j] = 0;
      floorOf[j] = floor;
      queue.push(j);
    }
  }
}

/** Whether a pixel of the region is a shadow cast on the background around `from` (itself by default). */
function castShadow(region: Uint8Array, i: number, background: Float32Array[], from = i): boolean {
  const floor = [background[0]![from]!, background[1]![from]!, background[2]![from]!] as const;
  if (Number.isNaN(floor[0])) return false;
  return isCastShadow([region[i * 4]!, region[i * 4 + 1]!, region[i * 4 + 2]!], floor);
}

/**
 * A partly transparent edge pixel mixes product and background: F = (I − (1 − α)·B) / α, with B
 * the nearby background. Faint ones take the nearby product colour, as solving would amplify noise.
 */
function unmixEdges(region: Uint8Array, alpha: Float32Array, width: number, height: number, radius: number): void {
  const n = width * height,
    span = 3 * radius;
  const solid = new Float32Array(n),
    clear = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    solid[i] = alpha[i] === 1 ? 1 : 0;
    clear[i] = alpha[i] === 0 ? 1 : 0;
  }
  const product = weightedMeans(region, 4, solid, width, height, span),
    background = weightedMeans(region, 4, clear, width, height, span);
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    if (a <= 0 || a >= 1) continue;
    for (let c = 0; c < 3; c++) {
      const near = product[c]![i]!,
        behind = background[c]![i]!;
      const value =
        a < 0.35 && !Number.isNaN(near)
          ? near
          : Number.isNaN(behind)
            ? region[i * 4 + c]!
            : (region[i * 4 + c]! - (1 - a) * behind) / a;
      region[i * 4 + c] = Math.round(clamp(value, 0, 255));
    }
  }
}
