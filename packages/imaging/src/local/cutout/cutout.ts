import sharp from 'sharp';
import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box } from '../../types.js';
import { boundingBox } from './mask-ops.js';
import { cutoutFromAlpha, segmentProduct } from './segment.js';
import type { Segmentation } from './segment.js';

/** Side of the quick first pass that only finds where the product is. */
const COARSE_SIDE = 384;

/** Cutout of a whole decoded image: its own alpha when it has one, else segmentation. */
export function cutoutOf(image: RawImage): Segmentation {
  const segmentation = image.hasAlpha ? cutoutFromAlpha(image.data, image.width, image.height) : segmentProduct(image.data, image.width, image.height);
  if (!boundingBox(segmentation.mask, image.width, image.height)) throw new EmptyImageError();
  return segmentation;
}

/**
 * Where the product is in the image, in image pixels, found cheaply: from the alpha channel,
 * or by segmenting a small copy. Used to decide the scale before the real cutout is made.
 */
export async function locateProduct(image: RawImage): Promise<Box> {
  if (image.hasAlpha) {
    const box = boundingBox(image.data, image.width, image.height, 128, 4, 3);
    if (!box) throw new EmptyImageError('it is fully transparent');
    return box;
  }
  const factor = Math.min(1, COARSE_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * factor)), height = Math.max(1, Math.round(image.height * factor));
  const small = factor < 1
    ? await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } }).resize(width, height, { kernel: 'linear' }).raw().toBuffer()
    : image.data;
  const box = boundingBox(segmentProduct(small, width, height).mask, width, height);
  if (!box) throw new EmptyImageError();
  const x = Math.floor(box.x / factor), y = Math.floor(box.y / factor);
  return {
    x,
    y,
    width: Math.min(image.width, Math.ceil((box.x + box.width) / factor)) - x,
    height: Math.min(image.height, Math.ceil((box.y + box.height) / factor)) - y,
  };
}

export interface ScaledCutout {
  /** RGBA cutout of `sourceBox`, resized to width × height. */
  rgba: Buffer;
  width: number;
  height: number;
  /** The region of the image that was cut out and resized. */
  sourceBox: Box;
  /** Opaque product bounds inside the cutout. */
  bounds: Box;
}

/**
 * Resizes the product's region once, straight to its size in the shot, and cuts it out at
 * that size: product pixels go through exactly one resampling, so their colours survive.
 */
export async function scaledCutout(image: RawImage, located: Box, scale: number): Promise<ScaledCutout> {
  const margin = Math.round(Math.max(located.width, located.height) * 0.04) + Math.ceil(4 / Math.min(1, scale));
  const x = Math.max(0, located.x - margin), y = Math.max(0, located.y - margin);
  const sourceBox = {
    x,
    y,
    width: Math.min(image.width, located.x + located.width + margin) - x,
    height: Math.min(image.height, located.y + located.height + margin) - y,
  };
  const width = Math.max(1, Math.round(sourceBox.width * scale)), height = Math.max(1, Math.round(sourceBox.height * scale));
  const region = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .extract({ left: sourceBox.x, top: sourceBox.y, width: sourceBox.width, height: sourceBox.height })
    .resize(width, height)
    .raw()
    .toBuffer();
  const segmentation = cutoutOf({ ...image, data: region, width, height });
  const bounds = boundingBox(segmentation.mask, width, height);
  if (!bounds) throw new EmptyImageError();
  return { rgba: segmentation.cutout, width, height, sourceBox, bounds };
}
