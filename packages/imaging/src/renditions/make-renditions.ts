import sharp, { type ResizeOptions, type Sharp } from 'sharp';

/**
 * Small enough for lists on a phone, sharp enough that nobody sees WebP's artefacts at display size.
 * Effort 2, not sharp's 4: a slot is complete only once its renditions are stored, so they are on
 * the seller's wait; measured on a studio shot, effort 2 took half the CPU for 4% more bytes.
 */
const WEBP = { quality: 80, alphaQuality: 90, effort: 2 } as const;

/**
 * Smaller WebP copies of a stored image, one per requested longest side. The image is decoded and
 * shrunk once, to the largest size, and the rest are made from those pixels; nothing is enlarged,
 * and a cutout's transparency is kept.
 */
export async function makeRenditions<Name extends string>(
  image: Buffer | RawPixels,
  longestSides: Record<Name, number>,
): Promise<Record<Name, Buffer>> {
  const entries = Object.entries(longestSides) as [Name, number][];
  const largest = Math.max(...entries.map(([, side]) => side));
  const source = Buffer.isBuffer(image) ? sharp(image) : rawSource(image);
  const { data, info } = await source.resize(fitInside(largest)).raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const encoded = await Promise.all(
    entries.map(([, side]) => sharp(data, raw).resize(fitInside(side)).webp(WEBP).toBuffer()),
  );
  return Object.fromEntries(entries.map(([name], i) => [name, encoded[i]!])) as Record<Name, Buffer>;
}

/** Pixels an engine already holds, so the renditions need no decode of the file it encodes. */
export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
  /** A shot has no transparency: an alpha channel it carries is dropped, as its encoder drops it. */
  opaque: boolean;
}

function rawSource({ data, width, height, channels, opaque }: RawPixels): Sharp {
  const source = sharp(data, { raw: { width, height, channels } });
  return opaque ? source.removeAlpha() : source;
}

function fitInside(side: number): ResizeOptions {
  return { width: side, height: side, fit: 'inside', withoutEnlargement: true };
}
