import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import Alea from 'alea';
import sharp from 'sharp';
import { repoRoot } from '../corpus/corpus.js';
import { boundingBox, dilate } from '../local/cutout/mask-ops.js';
import type { Box, Point } from '../types.js';

/**
 * The `real` set of the imaging bench: each corpus product cutout composited into a seller-like
 * photo (a real photograph of a surface or a busy room, or a synthesised off-white sweep) with a
 * cast shadow, uneven light, sensor noise and a JPEG encode. The truth is the product's own alpha
 * where it was placed; the shadow is not part of it. Everything is seeded: the same product and
 * background always give the same bytes.
 */

export type RealCategory = 'surface' | 'sweep' | 'room';

/** A range [min, max] sampled uniformly. */
type Range = readonly [number, number];

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

export function realPhotosFolder(): string {
  return join(repoRoot(), 'bench', 'real-photos');
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
  const rgb = backdrop.rgb;
  for (let y = 0; y < cut.height; y++) {
    for (let x = 0; x < cut.width; x++) {
      const s = (y * cut.width + x) * 4, a = cut.rgba[s + 3]!;
      if (!a) continue;
      const p = (top + y) * width + left + x, o = p * 3, k = a / 255;
      truth[p] = a;
      for (let c = 0; c < 3; c++) rgb[o + c] = cut.rgba[s + c]! * k + rgb[o + c]! * (1 - k);
    }
  }

  // 5. Uneven light over the whole photo, then sensor noise, then the phone's JPEG.
  unevenLight(rgb, width, height, between([0.14, 0.3]), random() * 2 * Math.PI, background.category === 'sweep' ? 0 : between([0.04, 0.1]));
  sensorNoise(rgb, between([1.5, 4]), random);
  const bytes = Buffer.alloc(rgb.length);
  for (let i = 0; i < rgb.length; i++) bytes[i] = Math.max(0, Math.min(255, Math.round(rgb[i]!)));
  const photo = await sharp(bytes, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();

  return { id, product, background: background.name, category: background.category, photo, width, height, truth, box, tap: background.category === 'room' ? interiorPoint(truth, width, height, box) : null };
}

interface Backdrop {
  rgb: Float32Array;
  width: number;
  height: number;
}

function clampTo(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}

function sizeFor(aspect: number, longSide: number): { width: number; height: number } {
  return aspect >= 1 ? { width: longSide, height: Math.round(longSide / aspect) } : { width: Math.round(longSide * aspect), height: longSide };
}

/** A photograph: a random window of `aspect` (75–100% of the largest that fits), or the whole frame when `aspect` is null. */
async function photoBackdrop(file: string, aspect: number | null, longSide: number, random: () => number): Promise<Backdrop> {
  const image = sharp(await readFile(file));
  const meta = await image.metadata();
  const sourceAspect = meta.width / meta.height;
  const target = sizeFor(aspect ?? sourceAspect, longSide);
  let pipeline = image;
  if (aspect !== null) {
    const zoom = 0.75 + 0.25 * random();
    const fitWidth = aspect >= sourceAspect ? meta.width : meta.height * aspect;
    const cropWidth = Math.round(fitWidth * zoom), cropHeight = Math.round((fitWidth * zoom) / aspect);
    const region = { left: Math.floor(random() * (meta.width - cropWidth + 1)), top: Math.floor(random() * (meta.height - cropHeight + 1)), width: cropWidth, height: cropHeight };
    pipeline = image.extract(region);
  }
  const data = await pipeline.resize(target.width, target.height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  return { rgb: Float32Array.from(data), ...target };
}

/** An off-white seamless sweep: wall-to-floor gradient, a vignette and a faint paper texture. */
async function sweepBackdrop(background: RealBackground, aspect: number, longSide: number, random: () => number): Promise<Backdrop> {
  const { width, height } = sizeFor(aspect, longSide);
  const paper = await sharp(await readFile(join(realPhotosFolder(), 'paper-white.jpg'))).greyscale().resize(width, height, { fit: 'cover' }).raw().toBuffer();
  let mean = 0;
  for (const v of paper) mean += v;
  mean /= paper.length;
  const tint = background.tint ?? [242, 240, 236];
  const curveAt = 0.35 + 0.25 * random(); // where the wall bends into the floor
  const wallShade = 0.9 + 0.04 * random(), side = (random() - 0.5) * 0.06;
  const vignette = 0.1 + 0.08 * random(), paperGain = 0.35 + 0.3 * random();
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const v = y / height;
    const t = clampTo((v - curveAt + 0.2) / 0.4, 0, 1);
    const vertical = wallShade + (1 - wallShade) * t * t * (3 - 2 * t);
    for (let x = 0; x < width; x++) {
      const u = x / width, dx = u - 0.5, dy = v - 0.55;
      const shade = vertical * (1 + side * (u - 0.5) * 2) * (1 - vignette * (dx * dx + dy * dy) * 2.2);
      const grain = (paper[y * width + x]! - mean) * paperGain;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[o + c] = tint[c]! * shade + grain;
    }
  }
  return { rgb, width, height };
}

interface ProductLayer {
  rgba: Buffer;
  width: number;
  height: number;
}

/**
 * The product trimmed to its alpha bounds and scaled so its longest side is `longSide` (fitting the
 * frame). Some corpus cutouts carry a studio shadow in their alpha (soft, below 128, well away from
 * the product); it is dropped, keeping only the product's own anti-aliased edge, and the photo gets
 * its own shadow instead.
 */
async function productLayer(png: Buffer, longSide: number, frameWidth: number, frameHeight: number): Promise<ProductLayer> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const solid = new Uint8Array(info.width * info.height);
  for (let p = 0; p < solid.length; p++) solid[p] = data[p * 4 + 3]! >= 128 ? 1 : 0;
  const edge = 4;
  const near = dilate(solid, info.width, info.height, edge);
  for (let p = 0; p < near.length; p++) if (!near[p]) data[p * 4 + 3] = 0;
  const found = boundingBox(data, info.width, info.height, 128, 4, 3);
  if (!found) throw new Error('the product cutout has no opaque pixels');
  const left = Math.max(0, found.x - edge), top = Math.max(0, found.y - edge);
  const bounds = { left, top, width: Math.min(info.width, found.x + found.width + edge) - left, height: Math.min(info.height, found.y + found.height + edge) - top };
  const scale = Math.min(longSide / Math.max(found.width, found.height), (frameWidth - 8) / bounds.width, (frameHeight - 8) / bounds.height);
  const width = Math.max(1, Math.round(bounds.width * scale)), height = Math.max(1, Math.round(bounds.height * scale));
  const rgba = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .extract(bounds)
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { rgba, width, height };
}

/**
 * The product's silhouette laid on the floor behind it (squashed and sheared away from a light in
 * front) and blurred, plus a contact shadow: its lowest rows flattened onto the base line, so half
 * of it shows below the product. Both darken the backdrop; neither is part of the truth.
 */
function castShadow(rgb: Float32Array, width: number, height: number, cut: ProductLayer, box: Box, random: () => number): void {
  const squash = 0.22 + 0.2 * random(), shear = (random() - 0.5) * 1.2;
  const strength = 0.3 + 0.2 * random(), contactStrength = 0.45 + 0.2 * random();
  let base = cut.height - 1;
  while (base > 0 && !rowHasAlpha(cut, base)) base--;
  const floorY = box.y + base;
  const cast = new Uint8Array(width * height), contact = new Uint8Array(width * height);
  const contactBand = Math.max(2, Math.round(cut.height * 0.08));
  for (let y = 0; y <= base; y++) {
    const rise = base - y;
    const sy = Math.round(floorY - rise * squash);
    if (sy < 0 || sy >= height) continue;
    const shift = rise * shear;
    for (let x = 0; x < cut.width; x++) {
      const a = cut.rgba[(y * cut.width + x) * 4 + 3]!;
      if (a < 64) continue;
      const sx = Math.round(box.x + x + shift);
      if (sx >= 0 && sx < width) cast[sy * width + sx] = 255;
      if (rise <= contactBand) contact[sy * width + box.x + x] = 255;
    }
  }
  const longSide = Math.max(cut.width, cut.height);
  const castBlur = blur(cast, width, height, Math.max(2, longSide * (0.02 + 0.02 * random())));
  const contactBlur = blur(contact, width, height, Math.max(2, longSide * 0.012));
  for (let p = 0; p < width * height; p++) {
    const dark = 1 - Math.min(0.85, (castBlur[p]! / 255) * strength + (contactBlur[p]! / 255) * contactStrength);
    if (dark >= 1) continue;
    const o = p * 3;
    rgb[o] = rgb[o]! * dark;
    rgb[o + 1] = rgb[o + 1]! * dark;
    rgb[o + 2] = rgb[o + 2]! * dark;
  }
}

function rowHasAlpha(cut: ProductLayer, y: number): boolean {
  for (let x = 0; x < cut.width; x++) if (cut.rgba[(y * cut.width + x) * 4 + 3]! >= 64) return true;
  return false;
}

/** A separable box blur run three times: close to a Gaussian of `sigma`, in place of a sharp round trip. */
function blur(values: Uint8Array, width: number, height: number, sigma: number): Float32Array {
  const radius = Math.max(1, Math.round((Math.sqrt((12 * sigma * sigma) / 3 + 1) - 1) / 2));
  const a = Float32Array.from(values);
  const b = new Float32Array(a.length);
  for (let pass = 0; pass < 3; pass++) {
    boxPass(a, b, width, height, radius, 1, width); // rows
    boxPass(b, a, height, width, radius, width, 1); // columns
  }
  return a;
}

/** One box pass along lines of `length` samples `step` apart; lines start `lineStep` apart. */
function boxPass(from: Float32Array, to: Float32Array, length: number, lines: number, radius: number, step: number, lineStep: number): void {
  const span = 2 * radius + 1;
  for (let line = 0; line < lines; line++) {
    const start = line * lineStep;
    let sum = 0;
    for (let i = -radius; i <= radius; i++) sum += from[start + clampTo(i, 0, length - 1) * step]!;
    for (let i = 0; i < length; i++) {
      to[start + i * step] = sum / span;
      sum += from[start + Math.min(length - 1, i + radius + 1) * step]! - from[start + Math.max(0, i - radius) * step]!;
    }
  }
}

/** A gentle luminance gradient across the photo (±amount/2 along `angle`), and an optional vignette. */
function unevenLight(rgb: Float32Array, width: number, height: number, amount: number, angle: number, vignette: number): void {
  const cx = Math.cos(angle), cy = Math.sin(angle);
  for (let y = 0; y < height; y++) {
    const v = y / height - 0.5;
    for (let x = 0; x < width; x++) {
      const u = x / width - 0.5;
      const gain = (1 + amount * (u * cx + v * cy)) * (1 - vignette * (u * u + v * v) * 2);
      const o = (y * width + x) * 3;
      rgb[o] = rgb[o]! * gain;
      rgb[o + 1] = rgb[o + 1]! * gain;
      rgb[o + 2] = rgb[o + 2]! * gain;
    }
  }
}

/** Gaussian sensor noise: a luminance part shared by the channels and a smaller chroma part. */
function sensorNoise(rgb: Float32Array, sigma: number, random: () => number): void {
  const gaussian = () => {
    const u = 1 - random(), v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  for (let o = 0; o < rgb.length; o += 3) {
    const luma = gaussian() * sigma;
    rgb[o] = rgb[o]! + luma + gaussian() * sigma * 0.5;
    rgb[o + 1] = rgb[o + 1]! + luma + gaussian() * sigma * 0.5;
    rgb[o + 2] = rgb[o + 2]! + luma + gaussian() * sigma * 0.5;
  }
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
