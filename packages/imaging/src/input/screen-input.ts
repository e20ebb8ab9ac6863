import { fileTypeFromBuffer } from 'file-type';
import { ImageTooLargeError, UnsupportedFormatError, unusableFileError } from '../errors.js';

export const MAX_INPUT_BYTES = 25 * 1024 * 1024;

/**
 * What an upload may be, by its magic bytes (file-type's MIME names). SVG, gzip (so SVGZ) and
 * TIFF are not here on purpose (docs/decisions.md), nor is anything file-type cannot name.
 */
const ACCEPTED_MIME_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/apng',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
]);

/** How a refused type is named to the seller: file-type's extension, except where a word says more. */
const REFUSED_NAMES: Record<string, string> = { gz: 'gzip-compressed, such as SVGZ', xml: 'SVG' };

/**
 * The checks that need no decoder: size, then the magic bytes against the allowlist. Every
 * decode runs after this, so a file that is not an accepted image never reaches libvips (whose
 * loaders would happily inflate an SVGZ) nor waits for a decoder's turn.
 */
export async function screenInput(buffer: Buffer): Promise<void> {
  if (!Buffer.isBuffer(buffer) || buffer.length === 0) throw unusableFileError('the file is empty');
  if (buffer.length > MAX_INPUT_BYTES) throw new ImageTooLargeError(`over ${MAX_INPUT_BYTES / 1024 / 1024} MB`);
  // XML has no magic bytes file-type always names; an SVG is still named as one in the refusal.
  if (looksLikeXml(buffer)) throw new UnsupportedFormatError('SVG');
  const type = await fileTypeFromBuffer(buffer);
  if (!type || !ACCEPTED_MIME_TYPES.has(type.mime)) {
    throw new UnsupportedFormatError(type && (REFUSED_NAMES[type.ext] ?? type.ext.toUpperCase()));
  }
}

function looksLikeXml(buffer: Buffer): boolean {
  const head = buffer
    .subarray(0, 256)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<');
}
