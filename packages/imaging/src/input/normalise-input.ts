import sharp from 'sharp';
import type { Metadata, Sharp } from 'sharp';
import {
  CorruptImageError,
  ImageTooLargeError,
  ImagingError,
  UnsupportedFormatError,
  unusableFileError,
} from '../errors.js';
import { screenInput } from './screen-input.js';

/**
 * Decoded pixels are capped at 40 Mpx (sharp's default is 268 Mpx): enough for a 48 MP phone
 * photo after its JPEG shrink-on-load, small enough that one decode stays under ~160 MB.
 */
export const MAX_INPUT_PIXELS = 40_000_000;
/** libvips aborts a decode that runs longer than this (whole seconds is all sharp accepts); 3 s leaves room for a busy 2-core machine. */
const DECODE_TIMEOUT_SECONDS = 3;
const MIN_SIDE = 16;

/** Formats the product accepts (docs/decisions.md); SVG and TIFF are refused on purpose. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif', 'avif']);

/**
 * Baseline JPEG with the standard Huffman tables, written row by row. Progressive or optimised
 * coding (mozjpeg's defaults) holds every DCT coefficient of the image until the end: at 40 Mpx
 * that measured +390 MB and 17 s against +43 MB and 0.8 s, for files about a fifth smaller.
 */
const STREAMING_JPEG = { quality: 92, progressive: false, optimiseCoding: false } as const;

export interface InputInfo {
  /** Format of the upload as detected from its bytes, not its name. */
  sourceFormat: string;
  width: number;
  height: number;
  hasAlpha: boolean;
}

export interface NormalisedImage extends InputInfo {
  /** Clean re-encoded image: sRGB 8-bit, upright, first frame only, no metadata. */
  buffer: Buffer;
  format: 'png' | 'jpeg';
  mimeType: 'image/png' | 'image/jpeg';
}

export interface RawImage {
  /** RGBA, 8 bits per channel, row-major. */
  data: Buffer;
  width: number;
  height: number;
  /** True when the source had an alpha channel that is not fully opaque. */
  hasAlpha: boolean;
  sourceFormat: string;
}

/** Maps libvips failures onto our typed errors; anything already typed passes through. */
function toImagingError(error: unknown): ImagingError {
  if (error instanceof ImagingError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return new ImageTooLargeError('too many pixels', { cause: error });
  if (/timeout/i.test(message)) return new ImageTooLargeError('it takes too long to decode', { cause: error });
  if (/unsupported image format/i.test(message)) return new UnsupportedFormatError(undefined, { cause: error });
  return new CorruptImageError({ cause: error });
}

function openImage(buffer: Buffer): Sharp {
  // failOn 'warning' turns truncated and half-corrupt files into errors instead of grey blocks.
  return sharp(buffer, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning', pages: 1, sequentialRead: true });
}

async function readHeader(buffer: Buffer): Promise<Metadata> {
  await screenInput(buffer);
  let meta: Metadata;
  try {
    meta = await sharp(buffer, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw toImagingError(error);
  }
  if (!ACCEPTED_FORMATS.has(meta.format)) throw new UnsupportedFormatError(meta.format.toUpperCase());
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  if (width * height > MAX_INPUT_PIXELS) {
    throw new ImageTooLargeError(`${width}×${height} pixels, the limit is ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
  }
  if (width < MIN_SIDE || height < MIN_SIDE) {
    throw unusableFileError(`it is only ${width}×${height} pixels`);
  }
  return meta;
}

/** The shared hygiene pipeline: upright, first frame, sRGB 8-bit, optionally bounded in size. */
function cleanPipeline(buffer: Buffer, maxSide: number | undefined): Sharp {
  let pipeline = openImage(buffer).autoOrient();
  if (maxSide) pipeline = pipeline.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
  return pipeline.toColourspace('srgb').timeout({ seconds: DECODE_TIMEOUT_SECONDS });
}

/**
 * Input hygiene for every upload: auto-orients by EXIF, converts CMYK/16-bit/wide-gamut to sRGB
 * 8-bit, keeps only the first frame of animations, caps pixels and decode time, and strips all
 * metadata by re-encoding (PNG when the image has transparency, JPEG otherwise).
 * The pixels stream from decoder to encoder: no decode holds the whole RGBA image (160 MB at the
 * pixel cap) in memory, so the API's memory stays bounded by its decode slots. Only a quarter
 * turn (EXIF orientation 5 to 8) needs every pixel at once: measured +165 MB at 40 Mpx.
 * With `maxSide`, sharp decodes JPEG and WebP already shrunk (shrink-on-load): +17 MB at 40 Mpx.
 * Throws `ImagingError` (unsupported_format, image_too_large, corrupt_image, empty_image).
 */
export async function normaliseInput(buffer: Buffer, options: { maxSide?: number } = {}): Promise<NormalisedImage> {
  const meta = await readHeader(buffer);
  try {
    const hasAlpha = meta.hasAlpha && !(await isOpaque(buffer, options.maxSide));
    const pipeline = cleanPipeline(buffer, options.maxSide);
    const encoder = hasAlpha
      ? pipeline.ensureAlpha().png({ compressionLevel: 6 })
      : pipeline.removeAlpha().jpeg(STREAMING_JPEG);
    const { data, info } = await encoder.toBuffer({ resolveWithObject: true });
    return {
      buffer: data,
      format: hasAlpha ? 'png' : 'jpeg',
      mimeType: hasAlpha ? 'image/png' : 'image/jpeg',
      sourceFormat: meta.format,
      width: info.width,
      height: info.height,
      hasAlpha,
    };
  } catch (error) {
    throw toImagingError(error);
  }
}

/**
 * Whether a source with an alpha channel is in fact opaque (many PNGs are), read as that channel
 * alone: one byte a pixel, a quarter of the RGBA decode, before the encoding pass.
 */
async function isOpaque(buffer: Buffer, maxSide: number | undefined): Promise<boolean> {
  const alpha = await cleanPipeline(buffer, maxSide).ensureAlpha().extractChannel(3).raw().toBuffer();
  return allOpaque(alpha, 0, 1);
}

/** Decodes an upload through the same hygiene into raw RGBA pixels for the engine's own work. */
export async function decodeRaw(buffer: Buffer, options: { maxSide?: number } = {}): Promise<RawImage> {
  const meta = await readHeader(buffer);
  try {
    const { data, info } = await cleanPipeline(buffer, options.maxSide)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data,
      width: info.width,
      height: info.height,
      hasAlpha: meta.hasAlpha && !allOpaque(data, 3, 4),
      sourceFormat: meta.format,
    };
  } catch (error) {
    throw toImagingError(error);
  }
}

/** True when every alpha byte (from `first`, every `stride` bytes) is fully opaque. */
function allOpaque(pixels: Buffer, first: number, stride: number): boolean {
  for (let i = first; i < pixels.length; i += stride) if (pixels[i] !== 255) return false;
  return true;
}
