import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { corpusFile } from '@prodshot/fixtures';

const realPhotos = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bench/real-photos');

/** A seller's photo the engine wrongly refuses, and the tap that shows it where the product is (fractions of the photo). */
export interface RefusedProductPhoto {
  photo: Buffer;
  tap: { x: number; y: number };
}

/**
 * The corpus sunglasses, 420 px wide, in the middle of a real photograph of grey pebbles
 * (bench/real-photos/stone-pebbles.jpg, 1280 px wide), as a phone would send it. The cutout model
 * sees nothing there untapped, so the upload is refused; a keep tap on the frames' middle finds them.
 */
export async function sunglassesOnPebbles(): Promise<RefusedProductPhoto> {
  const pebbles = await sharp(path.join(realPhotos, 'stone-pebbles.jpg'))
    .resize(1280)
    .toBuffer({ resolveWithObject: true });
  const glasses = await sharp(corpusFile('products', 'saleor-sunnies.png'))
    .resize(420)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = pebbles.info;
  const left = Math.round((width - glasses.info.width) / 2);
  const top = Math.round((height - glasses.info.height) / 2);
  const photo = await sharp(pebbles.data)
    .composite([{ input: glasses.data, raw: glasses.info, left, top }])
    .jpeg({ quality: 85 })
    .toBuffer();
  const solid = solidPointNearCentroid(glasses.data, glasses.info.width, glasses.info.height);
  return { photo, tap: { x: (left + solid.x) / width, y: (top + solid.y) / height } };
}

/** The opaque pixel of an RGBA layer nearest its centroid: a point on the product, not in a gap of it. */
function solidPointNearCentroid(rgba: Buffer, width: number, height: number): { x: number; y: number } {
  const opaque: { x: number; y: number }[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if (rgba[(y * width + x) * 4 + 3]! > 250) opaque.push({ x, y });
  const cx = opaque.reduce((sum, p) => sum + p.x, 0) / opaque.length;
  const cy = opaque.reduce((sum, p) => sum + p.y, 0) / opaque.length;
  const distance = (p: { x: number; y: number }) => (p.x - cx) ** 2 + (p.y - cy) ** 2;
  return opaque.reduce((best, p) => (distance(p) < distance(best) ? p : best));
}
