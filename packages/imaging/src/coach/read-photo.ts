import sharp from 'sharp';
import { exposure, sharpness, type Exposure, type GreyImage } from './measure.js';
import type { ProductMask } from './checks.js';

/** Long side of the grey copy the coach measures: blur is judged at the scale a listing shows the photo. */
export const COACH_SIDE = 640;

export interface PhotoStats extends Exposure {
  /** Size of the photo measured (the stored upload), in pixels. */
  width: number;
  height: number;
  sharpness: number;
}

/** Rec. 709 luma of RGBA pixels over white (a cutout is shown on a white page), and which pixels are opaque. */
function greyOverWhite(rgba: Buffer, width: number, height: number): { grey: GreyImage; opaque: Uint8Array | null } {
  const data = new Uint8Array(width * height);
  const opaque = new Uint8Array(width * height);
  let seeThrough = false;
  for (let p = 0; p < data.length; p++) {
    const alpha = rgba[p * 4 + 3]! / 255;
    const luma = 0.2126 * rgba[p * 4]! + 0.7152 * rgba[p * 4 + 1]! + 0.0722 * rgba[p * 4 + 2]!;
    data[p] = Math.round(luma * alpha + 255 * (1 - alpha));
    opaque[p] = alpha >= 0.5 ? 1 : 0;
    if (alpha < 1) seeThrough = true;
  }
  return { grey: { data, width, height }, opaque: seeThrough ? opaque : null };
}

/**
 * The coach's pixel measures of a stored upload (our own re-encoded JPEG or PNG). A JPEG is read
 * shrunk while it decodes (libjpeg's DCT scaling), so this costs a few milliseconds, not a second
 * full decode. Exposure counts a cutout's product alone: its transparent backdrop is no tone of the photo.
 */
export async function measurePhoto(buffer: Buffer): Promise<PhotoStats> {
  const image = sharp(buffer);
  const { width, height } = await image.metadata();
  const { data, info } = await image
    .resize(COACH_SIDE, COACH_SIDE, { fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { grey, opaque } = greyOverWhite(data, info.width, info.height);
  return { width, height, sharpness: sharpness(grey), ...exposure(grey, opaque ?? undefined) };
}

/** The product mask a finding carries (a greyscale PNG, 255 = product) as 0/1 pixels. */
export async function readProductMask(maskPng: Buffer): Promise<ProductMask> {
  const { data, info } = await sharp(maskPng).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const mask = new Uint8Array(info.width * info.height);
  for (let p = 0; p < mask.length; p++) mask[p] = data[p]! >= 128 ? 1 : 0;
  return { data: mask, width: info.width, height: info.height };
}
