import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import Alea from 'alea';
import sharp from 'sharp';
import type { Box, Point } from '../types.js';
import { photoBackdrop, realPhotosFolder, sweepBackdrop } from './real-backdrops.js';
import { sensorNoise, unevenLight } from './real-camera.js';
import { castShadow, productLayer, type ProductLayer } from './real-product-layer.js';

/**
 * The `real` set of the imaging bench: each corpus product cutout composited into a seller-like
 * photo (a real photograph of a surface or a busy room, or a synthesised off-white sweep) with a
 * cast shadow, uneven light, sensor noise and a JPEG encode. The truth is the product's own alpha
 * where it was placed; the shadow is not part of it. Everything is seeded: the same product and
 * background always give the same bytes.
 */

export type RealCategory = 'surface' | 'sweep' | 'room';

/** A range [min, max] sampled uniformly. */
export type Range = readonly [number, number];

export interface RealBackground {
  name: string;
  category: RealCategory;
  /** A photograph under bench/real-photos (see SOURCES.md there); none for a synthesised sweep. */
  file?: string;
  /** Off-white sweeps: the backdrop colour (sRGB 0..255). */
  tint?: readonly [number, number, number];
  /** Crop a random window of this aspect (width / height) from the photograph; rooms keep their framing. */
  crop: boolean;
  /** Places the product can stand, one picked per photo. */
  stands: readonly Stand[];
}

/** Where the product stands, as fractions of the photo: the centre of its base (x) and its base line (y). */
export interface Stand {
  x: Range;
  y: Range;
  /** The product's longest side as a share of the photo's short side. */
  scale: Range;
}

const SURFACE = { crop: true, stands: [{ x: [0.32, 0.68], y: [0.74, 0.92], scale: [0.35, 0.65] }] } as const;

export const REAL_BACKGROUNDS: readonly RealBackground[] = [
  { name: 'wood', category: 'surface', file: 'wood-painted-planks.jpg', ...SURFACE },
  { name: 'fabric', category: 'surface', file: 'fabric-canvas.jpg', ...SURFACE },
  { name: 'grass', category: 'surface', file: 'grass-meadow.jpg', ...SURFACE },
  { name: 'stone', category: 'surface', file: 'stone-pebbles.jpg', ...SURFACE },
  { name: 'sweep-warm', category: 'sweep', tint: [244, 240, 233], ...SURFACE },
  { name: 'sweep-cool', category: 'sweep', tint: [237, 239, 240], ...SURFACE },
  // Rooms: the product stands on a free patch of floor among other salient objects.
  // Rooms: the product stands among other salient objects, often in front of one, as in a seller's flat.
  {
    name: 'room-lounge',
    category: 'room',
    file: 'room-wine-lounge.jpg',
    crop: false,
    stands: [
      { x: [0.5, 0.62], y: [0.355, 0.37], scale: [0.25, 0.32] }, // on the table, by the bottle and the grinder
      { x: [0.78, 0.86], y: [0.92, 0.97], scale: [0.25, 0.4] }, // on the floor, by the bean bag
    ],
  },
  { name: 'room-fig-plate', category: 'room', file: 'room-fig-plate-concrete.jpg', crop: false, stands: [{ x: [0.13, 0.2], y: [0.84, 0.95], scale: [0.25, 0.4] }] },
  { name: 'room-boats', category: 'room', file: 'room-boats-shingle.jpg', crop: false, stands: [{ x: [0.5, 0.82], y: [0.87, 0.97], scale: [0.25, 0.4] }] },
];

export interface RealCase {
  /** `<product file>@<background>` */
  id: string;
  product: string;
  background: string;
  category: RealCategory;
  /** The seller-like photo: JPEG, quality 80. */
  photo: Buffer;
  width: number;
  height: number;
  /** The product's alpha where it was placed, 0..255 at the photo's size (≥ 128 = product). */
  truth: Uint8Array;
  /** Bounds of the product in the photo. */
  box: Box;
  /** Rooms: a point inside the product (its most interior pixel) as fractions 0..1, where a seller would tap. */
  tap: Point | null;
}

/**
 * The set's pairs: each product on two surfaces, one sweep and one room (rotated by the product's
 * index), so 17 corpus products make 68 cases, 17 of them rooms.
 */
export function realSetPairs(productFiles: readonly string[]): Array<{ file: string; background: RealBackground }> {
  const byCategory = (category: RealCategory) => REAL_BACKGROUNDS.filter((b) => b.category === category);
  const surfaces = byCategory('surface'), sweeps = byCategory('sweep'), rooms = byCategory('room');
  return productFiles.flatMap((file, i) => [
    { file, background: surfaces[i % surfaces.length]! },
    { file, background: surfaces[(i + 1) % surfaces.length]! },
    { file, background: sweeps[i % sweeps.length]! },
    { file, background: rooms[i % rooms.length]! },
  ]);
}

/** Every case of the set, one at a time (each holds a few MB of pixels). */
export async function* realSetCases(productFiles: readonly string[]): AsyncGenerator<RealCase> {
  for (const { file, background } of realSetPairs(productFiles)) yield await makeRealCase(file, background);
}

const LONG_SIDES = [1024, 1152, 1280] as const;
const ASPECTS = [4 / 3, 1, 3 / 4] as const;

/** One seller-like photo of `productFile` on `background`. */
export async function makeRealCase(productFile: string, background: RealBackground): Promise<RealCase> {
  const product = basename(productFile);
  const id = `${product}@${background.name}`;
  const random = Alea('prodshot real set', id);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const between = ([min, max]: Range) => min + (max - min) * random();

  // 1. The backdrop, at 1024–1280 px on its long side.
  const longSide = pick(LONG_SIDES);
  const backdrop = background.file ? await photoBackdrop(join(realPhotosFolder(), background.file), background.crop ? pick(ASPECTS) : null, longSide, random) : await sweepBackdrop(background, pick(ASPECTS), longSide, random);
  const { width, height } = backdrop;

  // 2. The product, trimmed to its alpha and scaled to its share of the frame.
  const stand = pick(background.stands);
  const cut = await productLayer(await readFile(productFile), Math.round(between(stand.scale) * Math.min(width, height)), width, height);
  const baseX = between(stand.x) * width, baseY = between(stand.y) * height;
  const left = Math.round(clampTo(baseX - cut.width / 2, 2, width - cut.width - 2));
  const top = Math.round(clampTo(baseY - cut.height, 2, height - cut.height - 2));
  const box = { x: left, y: top, width: cut.width, height: cut.height };

  // 3. A soft cast shadow on the floor, multiplied into the backdrop (never part of the truth).
  castShadow(backdrop.rgb, width, height, cut, box, random);

  // 4. The product over it; the truth is its alpha there.
  const truth = new Uint8Array(width * height);
  placeLayer(backdrop.rgb, width, cut, box, truth);

  // 5. Uneven light over the whole photo, then sensor noise, then the phone's JPEG.
  const photo = await finishPhoto(backdrop.rgb, width, height, background.category === 'sweep', random);

  return { id, product, background: background.name, category: background.category, photo, width, height, truth, box, tap: background.category === 'room' ? interiorPoint(truth, width, height, box) : null };
}

/** `layer` over `rgb` at `box` (alpha blended); its alpha is written into `alpha` where it is set, when given. */
export function placeLayer(rgb: Float32Array, width: number, layer: ProductLayer, box: Box, alpha?: Uint8Array): void {
  for (let y = 0; y < layer.height; y++) {
    for (let x = 0; x < layer.width; x++) {
      const s = (y * layer.width + x) * 4, a = layer.rgba[s + 3]!;
      if (!a) continue;
      const p = (box.y + y) * width + box.x + x, o = p * 3, k = a / 255;
      if (alpha) alpha[p] = a;
      for (let c = 0; c < 3; c++) rgb[o + c] = layer.rgba[s + c]! * k + rgb[o + c]! * (1 - k);
    }
  }
}

/** Uneven light over the whole photo (no ambient falloff on a sweep), then sensor noise, then the phone's JPEG at quality 80. */
export async function finishPhoto(rgb: Float32Array, width: number, height: number, sweep: boolean, random: () => number): Promise<Buffer> {
  const between = ([min, max]: Range) => min + (max - min) * random();
  unevenLight(rgb, width, height, between([0.14, 0.3]), random() * 2 * Math.PI, sweep ? 0 : between([0.04, 0.1]));
  sensorNoise(rgb, between([1.5, 4]), random);
  const bytes = Buffer.alloc(rgb.length);
  for (let i = 0; i < rgb.length; i++) bytes[i] = Math.max(0, Math.min(255, Math.round(rgb[i]!)));
  return sharp(bytes, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

/** Not mask-ops' clamp: when the product is wider than the frame leaves room for, min must win. */
export function clampTo(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}

/** The truth mask's most interior pixel (largest chamfer distance to its outside), as fractions of the photo. */
export function interiorPoint(truth: Uint8Array, width: number, height: number, box: Box): Point {
  const w = box.width + 2, h = box.height + 2;
  const distance = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const px = box.x + x - 1, py = box.y + y - 1;
      const inside = px >= 0 && py >= 0 && px < width && py < height && truth[py * width + px]! >= 128;
      distance[y * w + x] = inside ? Infinity : 0;
    }
  }
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 0 : distance[y * w + x]!);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (distance[i]) distance[i] = Math.min(distance[i]!, at(x - 1, y) + 3, at(x, y - 1) + 3, at(x - 1, y - 1) + 4, at(x + 1, y - 1) + 4);
    }
  }
  let best = -1, bestX = 0, bestY = 0;
  for (let y = h - 1; y >= 0; y--) {
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (distance[i]) distance[i] = Math.min(distance[i]!, at(x + 1, y) + 3, at(x, y + 1) + 3, at(x + 1, y + 1) + 4, at(x - 1, y + 1) + 4);
      if (distance[i]! > best) [best, bestX, bestY] = [distance[i]!, x, y];
    }
  }
  return { x: (box.x + bestX - 1 + 0.5) / width, y: (box.y + bestY - 1 + 0.5) / height };
}
