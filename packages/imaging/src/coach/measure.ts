/**
 * Pure measures of a photo's grey pixels (one byte a pixel, row-major) for the photo coach. No
 * sharp here: the caller decodes (see read-photo.ts), so these run on any pixels, tests included.
 */

export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Side of the square tiles the sharpness is measured in, in pixels of the grey copy. */
export const SHARPNESS_TILE = 32;
/** Share of tiles, the sharpest ones, whose mean is the photo's sharpness. */
const SHARPEST_TILES = 0.1;

/**
 * Variance of the Laplacian in each tile of the image. A product on a plain backdrop is a small
 * part of the frame: the flat tiles have no edges, sharp or soft, so only the sharpest tiles tell.
 */
export function laplacianTileVariances({ data, width, height }: GreyImage, tile = SHARPNESS_TILE): number[] {
  const variances: number[] = [];
  for (let top = 1; top < height - 1; top += tile) {
    for (let left = 1; left < width - 1; left += tile) {
      const bottom = Math.min(height - 1, top + tile),
        right = Math.min(width - 1, left + tile);
      let sum = 0,
        squares = 0,
        n = 0;
      for (let y = top; y < bottom; y++) {
        for (let x = left; x < right; x++) {
          const p = y * width + x;
          const laplacian = data[p - 1]! + data[p + 1]! + data[p - width]! + data[p + width]! - 4 * data[p]!;
          sum += laplacian;
          squares += laplacian * laplacian;
          n++;
        }
      }
      // Slivers at the right and bottom edges hold too few pixels for a variance worth trusting.
      if (n >= (tile * tile) / 4) variances.push(squares / n - (sum / n) ** 2);
    }
  }
  return variances;
}

/** The photo's sharpness: mean Laplacian variance of its sharpest tenth of tiles. */
export function sharpness(image: GreyImage): number {
  const variances = laplacianTileVariances(image).sort((a, b) => b - a);
  if (variances.length === 0) return 0;
  const top = variances.slice(0, Math.max(1, Math.round(variances.length * SHARPEST_TILES)));
  return top.reduce((a, b) => a + b, 0) / top.length;
}

export interface Exposure {
  /** Grey levels (0..255) below which 2%, 50% and 98% of the pixels lie. */
  low: number;
  median: number;
  high: number;
  /** Share of pixels at 250 or more: highlights with no detail left. */
  clipped: number;
}

/** Tones of the pixels `counted` marks (all when absent): a cutout's transparent pixels are no part of the photo. */
export function exposure({ data }: GreyImage, counted?: Uint8Array): Exposure {
  const histogram = new Uint32Array(256);
  let total = 0;
  for (let p = 0; p < data.length; p++) {
    if (counted && !counted[p]) continue;
    histogram[data[p]!]!++;
    total++;
  }
  const level = (share: number): number => {
    const target = share * total;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v]!;
      if (seen >= target) return v;
    }
    return 255;
  };
  let clipped = 0;
  for (let v = 250; v < 256; v++) clipped += histogram[v]!;
  return { low: level(0.02), median: level(0.5), high: level(0.98), clipped: total ? clipped / total : 0 };
}
