// Over 250 lines: one measure of an export (margins, background, shadow band, product share) whose steps share
// the decoded pixels and the product mask.
import type { Box } from '../types.js';
import { connectedComponents } from '../local/cutout/mask-ops.js';

/** An image as decoded for measuring: RGBA, 8 bits. */
export interface MeasuredImage {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * How the product was told apart from its background: by the image's own alpha, by the scene we
 * rendered behind it (reference), by a plain background's colour read from the border, or not
 * at all (a background we cannot reproduce and that is not plain).
 */
export type ProductSource = 'alpha' | 'reference' | 'plain-background' | null;

export interface Measurements {
  width: number;
  height: number;
  /** Share of the border ring's pixels that are opaque RGB 255, 255, 255 exactly. */
  whiteBorder: number;
  /** Share of the border ring's pixels that are fully transparent. */
  transparentBorder: number;
  productSource: ProductSource;
  product: Box | null;
  /** The product box's larger share of the frame's width or height (Amazon's "fills 85%"). */
  fill: number | null;
  /** The product box reaches the outermost row or column: the frame cuts it. */
  touchesEdge: boolean | null;
  /** Share of the pixels away from the product where the difference to the background has a sharp edge. */
  overlayShare: number | null;
  /**
   * On a pure-white image: share of the product box's width that a tinted band at its foot spans
   * (a source photo's shadow that came along with the cutout); null when the background is not white.
   */
  tintedBand: number | null;
}

/** A pixel belongs to the product when a channel differs from the background by more than this. */
const FOREGROUND_DIFF = 40;
const PLAIN_DIFF = 24;
/** A border is plain when this share of it (the rest may be a product the frame cuts) lies within PLAIN_SPREAD of its median colour. */
const PLAIN_SHARE = 0.6;
const PLAIN_SPREAD = 16;
/** A part of the product is any component at least this share of the largest (pairs, sets). */
const PART_SHARE = 0.1;
/** Luma step within the difference image that counts as a drawn edge (text, a logo, a stamp). */
const EDGE_STEP = 48;

export function borderWidth(width: number, height: number): number {
  return Math.max(1, Math.round(Math.min(width, height) * 0.01));
}

/**
 * Measures what the compliance report needs from the pixels alone. `reference` is the background
 * we rendered behind the product (RGB, same size) when we can render it again.
 */
export function measure(image: MeasuredImage, reference: Buffer | null): Measurements {
  const { width, height } = image;
  const border = borderStats(image);
  const background = backgroundModel(image, reference, border.median, border.plain);
  const base = { width, height, whiteBorder: border.white, transparentBorder: border.transparent };
  if (!background)
    return {
      ...base,
      productSource: null,
      product: null,
      fill: null,
      touchesEdge: null,
      overlayShare: null,
      tintedBand: null,
    };
  const product = productBox(background.foreground, width, height);
  const white = border.white >= WHITE_SHARE;
  if (!product)
    return {
      ...base,
      productSource: background.source,
      product: null,
      fill: 0,
      touchesEdge: false,
      overlayShare: overlayShare(background.delta, width, height, null),
      tintedBand: white ? 0 : null,
    };
  return {
    ...base,
    productSource: background.source,
    product,
    fill: Math.max(product.width / width, product.height / height),
    touchesEdge:
      product.x === 0 ||
      product.y === 0 ||
      product.x + product.width === width ||
      product.y + product.height === height,
    overlayShare: overlayShare(background.delta, width, height, product),
    tintedBand: white ? tintedBand(image, background.foreground, product) : null,
  };
}

/** The background counts as white for the band check when this share of the border is #FFFFFF. */
const WHITE_SHARE = 0.95;
/** The foot of the product: its box's lowest rows, this share of its height. */
const FOOT_SHARE = 0.08;
/** A band pixel is tinted when its channels spread this far (RGB levels)… */
const TINT_SPREAD = 12;
/** …and muted: a shadow on a coloured floor is the floor's hue, darkened, not a vivid product colour. */
const TINT_MAX_SATURATION = 0.5;

/**
 * How wide a tinted band at the product's foot is, as a share of the product box's width: the
 * columns of the foot's rows holding a muted, tinted pixel. On white our own shadow is neutral
 * grey and an export draws none, so a band tinted like a floor is the source photo's shadow.
 */
function tintedBand(image: MeasuredImage, foreground: Uint8Array, product: Box): number {
  const { data, width } = image;
  const rows = Math.max(2, Math.round(product.height * FOOT_SHARE));
  let columns = 0;
  for (let x = product.x; x < product.x + product.width; x++) {
    let solid = 0,
      tinted = 0;
    for (let y = product.y + product.height - rows; y < product.y + product.height; y++) {
      const p = y * width + x,
        o = p * 4;
      if (!foreground[p]) continue;
      solid++;
      const high = Math.max(data[o]!, data[o + 1]!, data[o + 2]!),
        low = Math.min(data[o]!, data[o + 1]!, data[o + 2]!);
      if (high - low >= TINT_SPREAD && (high - low) / high <= TINT_MAX_SATURATION) tinted++;
    }
    // Most of the foot, not the product's anti-aliased rim against white (which is muted too).
    if (tinted >= 3 && tinted * 2 >= solid) columns++;
  }
  return columns / product.width;
}

/** Columns of row y that lie in the border ring. */
function* ringColumns(y: number, width: number, height: number, ring: number): Generator<number> {
  const fullRow = y < ring || y >= height - ring;
  for (let x = 0; x < width; x++) {
    if (!fullRow && x === ring) x = Math.max(x, width - ring);
    yield x;
  }
}

function borderStats(image: MeasuredImage) {
  const { data, width, height } = image;
  const ring = borderWidth(width, height);
  const offsets: number[] = [];
  for (let y = 0; y < height; y++)
    for (const x of ringColumns(y, width, height, ring)) offsets.push((y * width + x) * 4);
  let white = 0,
    transparent = 0;
  for (const o of offsets) {
    if (data[o + 3] === 0) transparent++;
    else if (data[o] === 255 && data[o + 1] === 255 && data[o + 2] === 255 && data[o + 3] === 255) white++;
  }
  const median = [0, 1, 2].map((c) => offsets.map((o) => data[o + c]!).sort((a, b) => a - b)[offsets.length >> 1]!);
  const near = offsets.filter((o) =>
    [0, 1, 2].every((c) => Math.abs(data[o + c]! - median[c]!) <= PLAIN_SPREAD),
  ).length;
  const total = offsets.length;
  return { white: white / total, transparent: transparent / total, median, plain: near / total >= PLAIN_SHARE };
}

interface Background {
  source: Exclude<ProductSource, null>;
  foreground: Uint8Array;
  /** Per pixel: luma of the image minus luma of the background (alpha for cut-outs). */
  delta: Float32Array;
}

function backgroundModel(
  image: MeasuredImage,
  reference: Buffer | null,
  median: number[],
  plain: boolean,
): Background | null {
  const { data, width, height } = image;
  const n = width * height;
  const foreground = new Uint8Array(n);
  const delta = new Float32Array(n);
  let translucent = false;
  for (let p = 0; p < n && !translucent; p++) translucent = data[p * 4 + 3]! < 255;
  if (translucent) {
    for (let p = 0; p < n; p++) {
      foreground[p] = data[p * 4 + 3]! >= 128 ? 1 : 0;
      delta[p] = data[p * 4 + 3]!;
    }
    return { source: 'alpha', foreground, delta };
  }
  if (!reference && !plain) return null;
  const threshold = reference ? FOREGROUND_DIFF : PLAIN_DIFF;
  for (let p = 0; p < n; p++) {
    const o = p * 4;
    let diff = 0,
      lumaDiff = 0;
    for (let c = 0; c < 3; c++) {
      const back = reference ? reference[p * 3 + c]! : median[c]!;
      const d = data[o + c]! - back;
      diff = Math.max(diff, Math.abs(d));
      lumaDiff += d * LUMA[c]!;
    }
    foreground[p] = diff > threshold ? 1 : 0;
    delta[p] = lumaDiff;
  }
  return { source: reference ? 'reference' : 'plain-background', foreground, delta };
}

const LUMA = [0.299, 0.587, 0.114];

/** The union box of the largest foreground component and of every part at least PART_SHARE of it. */
function productBox(foreground: Uint8Array, width: number, height: number): Box | null {
  const { labels, sizes } = connectedComponents(foreground, width, height);
  if (sizes.length === 0) return null;
  const largest = Math.max(...sizes);
  const keep = sizes.map((size) => size >= largest * PART_SHARE);
  let minX = width,
    minY = height,
    maxX = -1,
    maxY = -1;
  for (let p = 0; p < labels.length; p++) {
    const label = labels[p]!;
    if (label === 0 || !keep[label - 1]) continue;
    const x = p % width,
      y = (p - x) / width;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/**
 * Share of the pixels outside the product's surroundings where the difference to the background
 * jumps by EDGE_STEP to a neighbour. Our shadows are blurred, so they change slowly; text, logos
 * and stamps have hard edges. The surroundings are the product box grown by 3% of the frame, and
 * below it by 40% of its height, where the local engine's reflection fades out.
 */
function overlayShare(delta: Float32Array, width: number, height: number, product: Box | null): number {
  const grow = Math.round(Math.min(width, height) * 0.03);
  const skip = product
    ? {
        x0: product.x - grow,
        y0: product.y - grow,
        x1: product.x + product.width + grow,
        y1: product.y + product.height + grow + Math.round(product.height * 0.4),
      }
    : null;
  let counted = 0,
    edges = 0;
  for (let y = 0; y < height - 1; y++) {
    for (let x = 0; x < width - 1; x++) {
      if (skip && x >= skip.x0 && x < skip.x1 && y >= skip.y0 && y < skip.y1) continue;
      counted++;
      const p = y * width + x;
      if (Math.abs(delta[p + 1]! - delta[p]!) + Math.abs(delta[p + width]! - delta[p]!) > EDGE_STEP) edges++;
    }
  }
  return counted === 0 ? 0 : edges / counted;
}
