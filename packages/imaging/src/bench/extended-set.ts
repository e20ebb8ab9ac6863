// Over 250 lines: the extended set's table of categories (photos, products, scales, taps) and how one case is
// composed from it; the table is most of it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Alea from 'alea';
import { bytesFrom } from '../local/cutout/mask-ops.js';
import type { Box, Point } from '../types.js';
import { halfOf, shadowPixels, thinPartOf, type Half, type PartBox } from './extended-measures.js';
import { photoBackdrop, realPhotosFolder } from './real-backdrops.js';
import { castShadow, productLayer, type ProductLayer } from './real-product-layer.js';
import { clampTo, finishPhoto, interiorPoint, placeLayer, type Range } from './real-set.js';

/**
 * The extended `real` set (issue 30): the cases the first `real` set no longer shows failing, made
 * the same way (a corpus cutout composited into a photograph from bench/real-photos with a cast
 * shadow, uneven light, noise and a JPEG; truth = the product's alpha; all seeded), on photographs
 * the first set does not use. Each category is split by photograph into a tuning and a hold-out
 * half (`halfOf`).
 */

export type ExtendedCategory = 'pale' | 'same-colour' | 'small-front' | 'thin' | 'shadow-floor' | 'empty';

export const EXTENDED_CATEGORIES: readonly ExtendedCategory[] = ['pale', 'same-colour', 'small-front', 'thin', 'shadow-floor', 'empty'];

/** A seller's tap as fractions of the photo: `keep` true adds the object under it, false removes it. */
export interface Tap {
  x: number;
  y: number;
  keep: boolean;
}

/** Something else in the photo, behind the product: another corpus cutout, tinted to the product's colour or not. */
interface Neighbour {
  product: string;
  /** Recolour it to the product's mean colour (keeping its own shading): a same-colour neighbour. */
  tint: boolean;
  /** Its longest side as a share of the photo's short side. */
  scale: Range;
  /** Where the product stands against it: overlapping its side (touching), or in front of its middle. */
  at: 'side' | 'front';
}

interface CategorySpec {
  photos: readonly string[];
  products: readonly string[];
  /** How many photographs each product is placed on (rotated by the product's index). */
  photosPerProduct: number;
  /** The product's longest side as a share of the photo's short side; empty photos have none. */
  scale?: Range;
  /** Where the product's base stands (fractions), per photograph; default: the middle of the lower half. */
  stands?: Readonly<Record<string, { x: Range; y: Range }>>;
  /** The neighbour per photograph; none when the photograph itself holds the larger thing. */
  neighbours?: Readonly<Record<string, Neighbour>>;
  /**
   * Where the photograph itself holds the larger things (fractions of the photo, one point inside
   * each, read off the photograph alone): the seller drops each of them the product does not cover.
   */
  salient?: Readonly<Record<string, readonly Point[]>>;
  /** The seller taps the product (and any neighbour that came along). */
  taps: boolean;
  /** Each product's thin part (see thinPartOf), read off the product's picture. */
  thinParts?: Readonly<Record<string, PartBox>>;
}

/** Between the lenses, above the nose: the bridge (the lenses' rims stop at 0.43 and 0.57 of the width). */
const SUNGLASSES_BRIDGE: PartBox = { x: [0.43, 0.57], y: [0, 0.45] };

const LOWER_MIDDLE = { x: [0.35, 0.65], y: [0.72, 0.9] } as const;

export const EXTENDED_SPECS: Readonly<Record<ExtendedCategory, CategorySpec>> = {
  // Light and white products on pale textured surfaces: brick, plaster, pale stone, pale marble tile.
  pale: {
    photos: ['pale-brick-white.jpg', 'pale-plaster-roughcast.jpg', 'pale-stone-wall.jpg', 'pale-tile-marble.jpg'],
    products: ['saleor-white-plimsolls-2.png', 'solidus_bottles_1.png', 'saleor-carrot-drink.png', 'saleor-dash-force-1.png'],
    photosPerProduct: 2,
    scale: [0.35, 0.6],
    taps: false,
  },
  // The product overlapping the side of another object recoloured to its own colour, with taps.
  'same-colour': {
    photos: ['surface-beige-tile.jpg', 'surface-hedge.jpg', 'surface-stone-tiles.jpg', 'surface-wall-beige.jpg'],
    products: ['solidus_cap_red_1.png', 'solidus_notebook.png', 'saleor-beanie-1.png', 'saleor-apple-drink.png', 'saleor-mighty-mug.png'],
    photosPerProduct: 2,
    scale: [0.3, 0.42],
    neighbours: {
      'surface-beige-tile.jpg': { product: 'solidus_mug_set.png', tint: true, scale: [0.4, 0.5], at: 'side' },
      'surface-hedge.jpg': { product: 'saleor-carrot-drink.png', tint: true, scale: [0.38, 0.48], at: 'side' },
      'surface-stone-tiles.jpg': { product: 'saleor-pauls-blanace-420-1.png', tint: true, scale: [0.4, 0.5], at: 'side' },
      'surface-wall-beige.jpg': { product: 'solidus_canvas_tote.png', tint: true, scale: [0.42, 0.52], at: 'side' },
    },
    taps: true,
  },
  // A small product in front of a larger salient thing: a photographed crockery spread, a bird on a
  // trunk, and a large crockery set or shoe behind it. No face or vehicle photograph under a usable
  // licence was found in the Debian packages searched (see bench/real-photos/SOURCES.md).
  'small-front': {
    photos: ['behind-colourful-cups.jpg', 'behind-woodpecker-trunk.jpg', 'floor-old-planks.jpg', 'surface-wall-beige.jpg'],
    products: ['saleor-sunnies.png', 'saleor-apple-drink.png', 'saleor-white-plimsolls-2.png', 'solidus_cap_red_1.png'],
    photosPerProduct: 2,
    scale: [0.16, 0.24],
    stands: {
      'behind-colourful-cups.jpg': { x: [0.35, 0.65], y: [0.6, 0.85] },
      'behind-woodpecker-trunk.jpg': { x: [0.25, 0.4], y: [0.8, 0.95] },
    },
    salient: {
      // The cups' bowls nearest the middle and bottom, where the product stands.
      'behind-colourful-cups.jpg': [
        { x: 0.375, y: 0.5 },
        { x: 0.52, y: 0.74 },
        { x: 0.74, y: 0.49 },
        { x: 0.55, y: 0.3 },
        { x: 0.9, y: 0.72 },
        { x: 0.13, y: 0.68 },
        { x: 0.35, y: 0.93 },
      ],
      // The bird's body and the trunk.
      'behind-woodpecker-trunk.jpg': [
        { x: 0.45, y: 0.55 },
        { x: 0.17, y: 0.5 },
      ],
    },
    neighbours: {
      'floor-old-planks.jpg': { product: 'solidus_mug_set.png', tint: false, scale: [0.7, 0.8], at: 'front' },
      'surface-wall-beige.jpg': { product: 'saleor-pauls-blanace-420-1.png', tint: false, scale: [0.75, 0.85], at: 'front' },
    },
    taps: true,
  },
  // Products with a thin part: a sunglasses bridge, a mug handle, a bag strap.
  thin: {
    photos: ['floor-old-planks.jpg', 'surface-beige-tile.jpg', 'surface-stone-tiles.jpg', 'surface-wall-beige.jpg'],
    products: ['saleor-sunnies.png', 'saleor-sunnies-dark.png', 'saleor-mighty-mug.png', 'solidus_canvas_tote.png'],
    photosPerProduct: 2,
    scale: [0.45, 0.65],
    taps: false,
    thinParts: {
      'saleor-sunnies.png': SUNGLASSES_BRIDGE,
      'saleor-sunnies-dark.png': SUNGLASSES_BRIDGE,
      // Left of the mug's body (which starts at 0.28 of the width), below its rim.
      'saleor-mighty-mug.png': { x: [0, 0.27], y: [0.1, 0.85] },
      // Above the bag's top hem (at 0.265 of the height).
      'solidus_canvas_tote.png': { x: [0, 1], y: [0, 0.25] },
    },
  },
  // A product on a coloured floor with its cast and contact shadow.
  'shadow-floor': {
    photos: ['floor-blue-tiles.jpg', 'floor-dark-blue-tile.jpg', 'floor-old-planks.jpg', 'floor-red-tiles.jpg'],
    products: ['saleor-dash-force-1.png', 'saleor-white-plimsolls-2.png', 'solidus_canvas_tote.png', 'solidus_bottles_1.png'],
    photosPerProduct: 2,
    scale: [0.35, 0.55],
    taps: false,
  },
  // Textured surfaces with no product at all: the engine should refuse them.
  empty: {
    photos: ['empty-brick-red.jpg', 'empty-granite-wall.jpg', 'empty-gravel-pebbles.jpg', 'empty-grass-lawn.jpg', 'empty-paving-stone.jpg', 'empty-tiles-octagon.jpg', 'empty-wood-parquet.jpg'],
    products: [],
    photosPerProduct: 1,
    taps: false,
  },
};

export interface ExtendedCase {
  /** `<product file>@<photo>`, or `empty@<photo>` */
  id: string;
  category: ExtendedCategory;
  half: Half;
  product: string | null;
  /** The photograph under bench/real-photos. */
  backdrop: string;
  /** The seller-like photo: JPEG, quality 80. */
  photo: Buffer;
  width: number;
  height: number;
  /** The product's alpha where it was placed, 0..255 (≥ 128 = product); all 0 on an empty photo. */
  truth: Uint8Array;
  /**
   * The seller's taps: a positive one on the product; a negative one on a composited neighbour's
   * visible part, or on each salient thing of a photographed scene the product does not cover.
   */
  taps: Tap[];
  /** Thin parts: the truth's pixels of the product's named thin part (0/1, see thinPartOf). */
  thin?: Uint8Array;
  /** Coloured floor: the source shadow's pixels (0/1, see shadowPixels). */
  shadow?: Uint8Array;
}

/** A pixel is shadow when the shadow darkened it by at least this much, 3 px or more from the product. */
const SHADOW_DARKENING = 0.08;
const SHADOW_EDGE = 3;

/** The pairs of one category: each product on `photosPerProduct` photographs, rotated by its index; or each empty photograph. */
export function extendedPairs(category: ExtendedCategory): Array<{ product: string | null; photo: string }> {
  const spec = EXTENDED_SPECS[category];
  if (!spec.products.length) return spec.photos.map((photo) => ({ product: null, photo }));
  return spec.products.flatMap((product, i) => Array.from({ length: spec.photosPerProduct }, (_, k) => ({ product, photo: spec.photos[(i + k) % spec.photos.length]! })));
}

/** Every case of the given categories, one at a time. */
export async function* extendedCases(productFolder: string, categories: readonly ExtendedCategory[]): AsyncGenerator<ExtendedCase> {
  for (const category of categories) {
    for (const { product, photo } of extendedPairs(category)) yield await makeExtendedCase(productFolder, category, product, photo);
  }
}

const LONG_SIDES = [1024, 1152, 1280] as const;
const ASPECTS = [4 / 3, 1, 3 / 4] as const;

export async function makeExtendedCase(productFolder: string, category: ExtendedCategory, product: string | null, photoFile: string): Promise<ExtendedCase> {
  const spec = EXTENDED_SPECS[category];
  const id = `${product ?? 'empty'}@${photoFile.replace(/\.jpg$/, '')}`;
  const random = Alea('prodshot extended real set', category, id);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const between = ([min, max]: Range) => min + (max - min) * random();

  // Whole photographs of a scene keep their framing; textures are cropped to a random window.
  const scene = photoFile.startsWith('behind-');
  const longSide = pick(LONG_SIDES);
  const backdrop = await photoBackdrop(join(realPhotosFolder(), photoFile), scene ? null : pick(ASPECTS), longSide, random);
  const { width, height, rgb } = backdrop;
  const truth = new Uint8Array(width * height);
  const base = { id, category, half: halfOf(photoFile, spec.photos), product, backdrop: photoFile, width, height, truth };
  if (!product) return { ...base, photo: await finishPhoto(rgb, width, height, false, random), taps: [] };

  const short = Math.min(width, height);
  const cut = await productLayer(await readFile(join(productFolder, product)), Math.round(between(spec.scale!) * short), width, height);
  const neighbourSpec = spec.neighbours?.[photoFile];
  const stand = spec.stands?.[photoFile] ?? LOWER_MIDDLE;
  let baseX = between(stand.x) * width, baseY = between(stand.y) * height;

  // The neighbour first (behind), with its own shadow; the product then stands against it.
  let neighbourAlpha: Uint8Array | null = null;
  if (neighbourSpec) {
    let other = await productLayer(await readFile(join(productFolder, neighbourSpec.product)), Math.round(between(neighbourSpec.scale) * short), width, height);
    if (neighbourSpec.tint) other = tinted(other, meanColour(cut));
    const side = random() < 0.5 ? -1 : 1;
    const otherBaseY = clampTo(baseY - between([0.02, 0.06]) * height, other.height + 2, height - 2);
    const otherCentreX = neighbourSpec.at === 'side' ? baseX + side * (cut.width / 2 + other.width / 2 - between([0.2, 0.35]) * cut.width) : baseX + (random() - 0.5) * 0.2 * other.width;
    const otherBox = placeBox(other, otherCentreX, otherBaseY, width, height);
    castShadow(rgb, width, height, other, otherBox, random);
    neighbourAlpha = new Uint8Array(width * height);
    placeLayer(rgb, width, other, otherBox, neighbourAlpha);
    if (neighbourSpec.at === 'front') baseY = clampTo(otherBaseY + between([0.01, 0.04]) * height, 0, height - 2);
    baseX = clampTo(baseX, cut.width / 2 + 2, width - cut.width / 2 - 2);
  }

  const box = placeBox(cut, baseX, baseY, width, height);
  const darkening = castShadow(rgb, width, height, cut, box, random);
  placeLayer(rgb, width, cut, box, truth);
  const photo = await finishPhoto(rgb, width, height, false, random);

  const taps: Tap[] = [];
  if (spec.taps) {
    taps.push({ ...interiorPoint(truth, width, height, box), keep: true });
    const visible = neighbourAlpha && bytesFrom(neighbourAlpha, (a, p) => (a >= 128 && truth[p]! < 128 ? 255 : 0));
    if (visible?.some((v) => v)) taps.push({ ...interiorPoint(visible, width, height, { x: 0, y: 0, width, height }), keep: false });
    for (const point of spec.salient?.[photoFile] ?? []) {
      const at = Math.min(height - 1, Math.floor(point.y * height)) * width + Math.min(width - 1, Math.floor(point.x * width));
      if (truth[at]! < 128) taps.push({ ...point, keep: false });
    }
  }
  return {
    ...base,
    photo,
    taps,
    ...(spec.thinParts?.[product] ? { thin: thinPartOf(truth, width, height, spec.thinParts[product]) } : {}),
    ...(category === 'shadow-floor' ? { shadow: shadowPixels(darkening, truth, width, height, SHADOW_DARKENING, SHADOW_EDGE) } : {}),
  };
}

/** The box of `layer` with the centre of its base at (x, y), kept inside the frame. */
function placeBox(layer: ProductLayer, x: number, y: number, width: number, height: number): Box {
  const left = Math.round(clampTo(x - layer.width / 2, 2, width - layer.width - 2));
  const top = Math.round(clampTo(y - layer.height, 2, height - layer.height - 2));
  return { x: left, y: top, width: layer.width, height: layer.height };
}

function meanColour(layer: ProductLayer): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < layer.rgba.length; i += 4) {
    if (layer.rgba[i + 3]! < 128) continue;
    for (let c = 0; c < 3; c++) sum[c]! += layer.rgba[i + c]!;
    n++;
  }
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

/** The layer recoloured to `colour`, keeping its own light and shade (luminance relative to its mean). */
function tinted(layer: ProductLayer, colour: readonly [number, number, number]): ProductLayer {
  const luma = (i: number) => 0.299 * layer.rgba[i]! + 0.587 * layer.rgba[i + 1]! + 0.114 * layer.rgba[i + 2]!;
  let sum = 0, n = 0;
  for (let i = 0; i < layer.rgba.length; i += 4) if (layer.rgba[i + 3]! >= 128) [sum, n] = [sum + luma(i), n + 1];
  const meanLuma = Math.max(1, sum / Math.max(1, n));
  const rgba = Buffer.from(layer.rgba);
  for (let i = 0; i < rgba.length; i += 4) {
    // Shading compressed towards 1 so a dark or bright neighbour still reads as the product's colour.
    const shade = 1 + 0.6 * (luma(i) / meanLuma - 1);
    for (let c = 0; c < 3; c++) rgba[i + c] = Math.max(0, Math.min(255, Math.round(colour[c]! * shade)));
  }
  return { ...layer, rgba };
}
