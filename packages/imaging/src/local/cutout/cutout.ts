import type { Tap } from '@prodshot/contracts';
import sharp from 'sharp';
import { EmptyImageError, unusableFileError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { estimateBackground } from './background-model.js';
import { boundingBox } from './mask-ops.js';
import { findSubject, mlCutout, type MlCutout, type SubjectFindings } from './ml-cutout.js';
import { cutoutFromAlpha, segmentProduct } from './segment.js';
import type { Segmentation } from './segment.js';

/** Side of the quick first pass that only finds where the product is. */
const COARSE_SIDE = 384;

/** Cutout of a whole decoded image: its own alpha when it has one, else segmentation. */
export function cutoutOf(image: RawImage): Segmentation {
  const segmentation = image.hasAlpha
    ? cutoutFromAlpha(image.data, image.width, image.height)
    : segmentProduct(image.data, image.width, image.height);
  if (!boundingBox(segmentation.mask, image.width, image.height)) throw new EmptyImageError();
  return segmentation;
}

/**
 * On a plain backdrop the classical cutout, whose edges are solved against the modelled backdrop,
 * is kept where the model's outline agrees with it this well: it is the better of the two there.
 */
const AGREEMENT = 0.8;

/**
 * The product of a photo and what else could have been: the upload's own alpha when it has one;
 * otherwise the salient-object model, unless the backdrop is plain and the classical cutout,
 * whose edges are solved against a modelled backdrop, agrees with it. The seller's taps choose,
 * add and remove objects (see findSubject). Without a model (unit tests, a deployment that opts
 * out) the classical cutout alone, which has no objects to tap.
 */
export async function findProduct(
  image: RawImage,
  salient: SalientObjectModel | undefined,
  taps: readonly Tap[] = [],
): Promise<MlCutout> {
  if (image.hasAlpha || !salient) {
    const segmentation = cutoutOf(image);
    const box = boundingBox(segmentation.mask, image.width, image.height)!;
    const centre = { x: (box.x + box.width / 2) / image.width, y: (box.y + box.height / 2) / image.height };
    return { ...segmentation, candidates: [{ box, point: centre, score: 1 }], confidence: 1, needsFocus: false };
  }
  const found = await mlCutout(salient, image, taps);
  if (taps.length || !plainBackdrop(image)) return found;
  const classical = segmentProduct(image.data, image.width, image.height);
  return overlap(classical.mask, found.mask) >= AGREEMENT ? { ...found, ...classical } : found;
}

/** What analysis needs of the product: its 0/1 mask and the findings, without refining the edges. */
export async function locateSubject(
  image: RawImage,
  salient: SalientObjectModel | undefined,
): Promise<{ mask: Uint8Array } & SubjectFindings> {
  if (image.hasAlpha || !salient) return findProduct(image, salient);
  const { soft, ...findings } = await findSubject(salient, image);
  return { mask: soft.map((value) => (value >= 128 ? 1 : 0)), ...findings };
}

function plainBackdrop(image: RawImage): boolean {
  const backdrop = estimateBackground(image.data, image.width, image.height);
  return backdrop.inlierShare >= 0.9 && backdrop.noise <= 6;
}

/** Intersection over union of two 0/1 masks of one size. */
export function overlap(a: Uint8Array, b: Uint8Array): number {
  let both = 0,
    either = 0;
  for (let p = 0; p < a.length; p++) {
    both += a[p]! & b[p]!;
    either += a[p]! | b[p]!;
  }
  return either ? both / either : 0;
}

/**
 * Where the product is in the image, in image pixels, found cheaply: from the alpha channel,
 * or by segmenting a small copy. Used to decide the scale before the real cutout is made.
 */
export async function locateProduct(image: RawImage): Promise<Box> {
  if (image.hasAlpha) {
    const box = boundingBox(image.data, image.width, image.height, 128, 4, 3);
    if (!box) throw unusableFileError('it is fully transparent');
    return box;
  }
  const factor = Math.min(1, COARSE_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * factor)),
    height = Math.max(1, Math.round(image.height * factor));
  const small =
    factor < 1
      ? await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
          .resize(width, height, { kernel: 'linear' })
          .raw()
          .toBuffer()
      : image.data;
  const box = boundingBox(segmentProduct(small, width, height).mask, width, height);
  if (!box) throw new EmptyImageError();
  const x = Math.floor(box.x / factor),
    y = Math.floor(box.y / factor);
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
  const x = Math.max(0, located.x - margin),
    y = Math.max(0, located.y - margin);
  const sourceBox = {
    x,
    y,
    width: Math.min(image.width, located.x + located.width + margin) - x,
    height: Math.min(image.height, located.y + located.height + margin) - y,
  };
  const width = Math.max(1, Math.round(sourceBox.width * scale)),
    height = Math.max(1, Math.round(sourceBox.height * scale));
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
