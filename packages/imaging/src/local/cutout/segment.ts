import { estimateBackground } from './background-model.js';
import { boundingBox, boxSum, clamp, connectedComponents, cropPlane, dilate, erode, fillHoles } from './mask-ops.js';

export interface Segmentation {
  /** RGBA cutout: product pixels untouched, edge pixels with refined alpha and the backdrop's tint removed. */
  cutout: Buffer;
  /** 0/1 product mask (alpha ≥ 50 %). */
  mask: Uint8Array;
  width: number;
  height: number;
}

/** Below this colour distance from the backdrop a pixel is taken as backdrop (RGB units). */
const MIN_THRESHOLD = 12;
/** Edge contrast below which alpha cannot be solved from colour (white on white). */
const MIN_EDGE_CONTRAST = 28;

/** The working arrays of one region of the photo. */
interface Region {
  width: number;
  height: number;
  rgba: Uint8Array;
  /** Modelled backdrop colour, RGB float. */
  backdrop: Float32Array;
  /** RGB distance between photo and backdrop. */
  distance: Float32Array;
}

function distanceMap(rgba: Uint8Array, backdrop: Float32Array): Float32Array {
  const distance = new Float32Array(rgba.length / 4);
  for (let p = 0, q = 0, b = 0; p < distance.length; p++, q += 4, b += 3) {
    const dr = rgba[q]! - backdrop[b]!,
      dg = rgba[q + 1]! - backdrop[b + 1]!,
      db = rgba[q + 2]! - backdrop[b + 2]!;
    distance[p] = Math.sqrt(dr * dr + dg * dg + db * db);
  }
  return distance;
}

/**
 * Thresholds the distance map and drops specks and cast shadows. A cast shadow is a component
 * that is only a darkened copy of the backdrop and nowhere darker than half of it: the soft
 * floor shadow product photos carry, which is not part of the product.
 */
function candidateMask(region: Region, threshold: number): Uint8Array {
  const { width, height, rgba, backdrop, distance } = region;
  const raw = new Uint8Array(width * height);
  for (let p = 0; p < raw.length; p++) raw[p] = distance[p]! > threshold ? 1 : 0;
  const { labels, sizes } = connectedComponents(raw, width, height);
  const shadowLike = new Float64Array(sizes.length);
  const tooDark = new Uint8Array(sizes.length);
  for (let p = 0; p < labels.length; p++) {
    const label = labels[p]!;
    if (label === 0) continue;
    const r = rgba[p * 4]!,
      g = rgba[p * 4 + 1]!,
      b = rgba[p * 4 + 2]!;
    const br = backdrop[p * 3]!,
      bg = backdrop[p * 3 + 1]!,
      bb = backdrop[p * 3 + 2]!;
    const scale = (r * br + g * bg + b * bb) / Math.max(1, br * br + bg * bg + bb * bb);
    if (scale < 0.5) tooDark[label - 1] = 1;
    else if (scale < 1 && Math.hypot(r - scale * br, g - scale * bg, b - scale * bb) < 8) shadowLike[label - 1]!++;
  }
  const largest = Math.max(0, ...sizes);
  const minSize = Math.max(16, largest * 0.002);
  const keep = sizes.map((size, i) => size >= minSize && (tooDark[i] === 1 || shadowLike[i]! < 0.95 * size));
  const mask = new Uint8Array(raw.length);
  for (let p = 0; p < mask.length; p++) mask[p] = labels[p]! > 0 && keep[labels[p]! - 1] ? 1 : 0;
  return mask;
}

/**
 * Closes small gaps in the outline and fills what the product encloses, except where the
 * enclosed or bridged pixels are the backdrop itself: the view through a mug handle or a bag
 * strap stays transparent, a pale label on a pale product does not.
 */
function closeAndFill(region: Region, mask: Uint8Array, exactBackdrop: number, scaleSide: number): Uint8Array {
  const { width, height, distance } = region;
  const gap = Math.max(1, Math.round(scaleSide / 120));
  const closed = erode(dilate(mask, width, height, gap), width, height, gap);
  const filled = fillHoles(closed, width, height);
  const added = new Uint8Array(mask.length);
  for (let p = 0; p < mask.length; p++) added[p] = filled[p] && !mask[p] ? 1 : 0;
  const { labels, sizes } = connectedComponents(added, width, height);
  const backdropLike = new Float64Array(sizes.length);
  for (let p = 0; p < labels.length; p++)
    if (labels[p]! > 0 && distance[p]! <= exactBackdrop) backdropLike[labels[p]! - 1]!++;
  const out = mask.slice();
  for (let p = 0; p < out.length; p++) {
    const label = labels[p]!;
    if (label > 0 && backdropLike[label - 1]! < 0.5 * sizes[label - 1]!) out[p] = 1;
  }
  return out;
}

/**
 * Solves alpha on a thin band around the mask edge: the product colour F is taken from nearby
 * interior pixels, the backdrop B is modelled, so alpha is the projection of I − B onto F − B.
 * Band colours are un-mixed from the backdrop, which is what prevents a coloured fringe.
 * Interior pixels are copied untouched.
 */
function refineEdges(region: Region, mask: Uint8Array, scaleSide: number): { cutout: Uint8Array; mask: Uint8Array } {
  const { width, height, rgba, backdrop } = region;
  const radius = Math.max(1, Math.round(scaleSide / 1000));
  const core = erode(mask, width, height, radius);
  const outer = dilate(mask, width, height, radius + 1);
  const reach = 3 * radius + 3;
  const channels = [0, 1, 2].map((c) => {
    const plane = new Float32Array(width * height);
    for (let p = 0; p < plane.length; p++) if (core[p]) plane[p] = rgba[p * 4 + c]!;
    return boxSum(plane, width, height, reach);
  }) as [Float32Array, Float32Array, Float32Array];
  const counts = boxSum(Float32Array.from(core), width, height, reach);
  const cutout = Uint8Array.from(rgba);
  const finalMask = new Uint8Array(mask.length);
  const fg = [0, 0, 0];
  for (let p = 0; p < mask.length; p++) {
    if (core[p]) {
      cutout[p * 4 + 3] = 255;
      finalMask[p] = 1;
      continue;
    }
    if (!outer[p]) {
      cutout.fill(0, p * 4, p * 4 + 4);
      continue;
    }
    const count = counts[p]!;
    let alpha = mask[p]!;
    if (count > 0) {
      for (let c = 0; c < 3; c++) fg[c] = channels[c]![p]! / count;
      alpha = solveAlpha(rgba, p, backdrop, fg, alpha);
    }
    const a = Math.round(alpha * 255);
    if (!a) {
      cutout.fill(0, p * 4, p * 4 + 4);
      continue;
    }
    cutout[p * 4 + 3] = a;
    finalMask[p] = alpha >= 0.5 ? 1 : 0;
    unmix(cutout, rgba, p, backdrop, alpha, count > 0 ? fg : null);
  }
  return { cutout, mask: finalMask };
}

function solveAlpha(rgba: Uint8Array, p: number, backdrop: Float32Array, fg: number[], fallback: number): number {
  let num = 0,
    den = 0;
  for (let c = 0; c < 3; c++) {
    const fb = fg[c]! - backdrop[p * 3 + c]!;
    num += (rgba[p * 4 + c]! - backdrop[p * 3 + c]!) * fb;
    den += fb * fb;
  }
  if (den < MIN_EDGE_CONTRAST * MIN_EDGE_CONTRAST) return fallback;
  return clamp(num / den, 0, 1);
}

/** Removes the backdrop's share from a partly transparent edge pixel: F = (I − (1 − α)·B) / α. */
function unmix(
  cutout: Uint8Array,
  rgba: Uint8Array,
  p: number,
  backdrop: Float32Array,
  alpha: number,
  fg: number[] | null,
): void {
  for (let c = 0; c < 3; c++) {
    // Weak alpha amplifies noise when solving, so lean on the nearby product colour instead.
    const value = fg && alpha < 0.35 ? fg[c]! : (rgba[p * 4 + c]! - (1 - alpha) * backdrop[p * 3 + c]!) / alpha;
    cutout[p * 4 + c] = Math.round(clamp(value, 0, 255));
  }
}

/** Separates a product from a plain or near-plain backdrop. Input and output are RGBA. */
export function segmentProduct(rgba: Uint8Array, width: number, height: number): Segmentation {
  const model = estimateBackground(rgba, width, height);
  const backdrop = model.render();
  const full: Region = { width, height, rgba, backdrop, distance: distanceMap(rgba, backdrop) };
  const candidates = candidateMask(full, Math.max(MIN_THRESHOLD, 5 * model.noise));
  // Cleared, not a copy of the photo: a transparent pixel keeps none of the seller's room (and compresses to nothing).
  const cutout = Buffer.alloc(rgba.length);
  const mask = new Uint8Array(width * height);
  const found = boundingBox(candidates, width, height);
  if (!found) return { cutout, mask, width, height };

  // Everything after thresholding only concerns the product and a margin around it.
  const side = Math.min(width, height);
  const margin = Math.round(side / 120) + Math.round(side / 250) + 6;
  const box = {
    x: Math.max(0, found.x - margin),
    y: Math.max(0, found.y - margin),
    width: Math.min(width, found.x + found.width + margin) - Math.max(0, found.x - margin),
    height: Math.min(height, found.y + found.height + margin) - Math.max(0, found.y - margin),
  };
  const region: Region = {
    width: box.width,
    height: box.height,
    rgba: cropPlane(rgba, width, box, 4),
    backdrop: cropPlane(backdrop, width, box, 3),
    distance: cropPlane(full.distance, width, box, 1),
  };
  const filled = closeAndFill(region, cropPlane(candidates, width, box, 1), Math.max(3, 2.5 * model.noise), side);
  const refined = refineEdges(region, filled, side);
  for (let y = 0; y < box.height; y++) {
    const row = (box.y + y) * width + box.x;
    cutout.set(refined.cutout.subarray(y * box.width * 4, (y + 1) * box.width * 4), row * 4);
    mask.set(refined.mask.subarray(y * box.width, (y + 1) * box.width), row);
  }
  return { cutout, mask, width, height };
}

/** Uses an existing alpha channel as the cutout (the seller already removed the background). */
export function cutoutFromAlpha(rgba: Uint8Array, width: number, height: number): Segmentation {
  const mask = new Uint8Array(width * height);
  for (let p = 0; p < mask.length; p++) mask[p] = rgba[p * 4 + 3]! >= 128 ? 1 : 0;
  return { cutout: Buffer.from(rgba), mask, width, height };
}
