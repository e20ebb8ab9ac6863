import { createHash } from 'node:crypto';

/**
 * Deterministic object key layout, one folder per user so that deleting or exporting a
 * user's data is a prefix operation:
 *   users/{userId}/uploads/{fileId}.{ext}
 *   users/{userId}/generations/{generationId}/{index}.{ext}
 * and what is made from a stored image in a folder named after it (derivedPrefix).
 */

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as const;

export type StoredContentType = keyof typeof EXTENSIONS;

export class InvalidKeyError extends Error {
  override readonly name = 'InvalidKeyError';
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 200))}`);
  }
}

/** Refuses traversal (`..`), absolute paths, backslashes, empty or odd segments. */
export function assertSafeKey(key: string): string {
  if (key.length === 0 || key.length > 512) throw new InvalidKeyError(key);
  const segments = key.split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment.includes('..')) throw new InvalidKeyError(key);
  }
  return key;
}

export function extensionFor(contentType: StoredContentType): string {
  return EXTENSIONS[contentType];
}

export function contentTypeForKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  const found = Object.entries(EXTENSIONS).find(([, e]) => e === ext);
  return found ? found[0] : 'application/octet-stream';
}

export function userPrefix(userId: string): string {
  return assertSafeKey(`users/${userId}`) + '/';
}

export function uploadKey(userId: string, fileId: string, contentType: StoredContentType): string {
  return assertSafeKey(`users/${userId}/uploads/${fileId}.${extensionFor(contentType)}`);
}

/** Files made from a stored image (an upload's cutouts, any image's renditions): beside it, deleted with it. */
export function derivedPrefix(key: string): string {
  return assertSafeKey(key.replace(/\.[a-z0-9]+$/, '')) + '/';
}

/** A tap as the keys read it (contracts' Tap): where on the photo, and whether it keeps or drops what it lands on. */
export interface KeyTap {
  x: number;
  y: number;
  keep: boolean;
}

/** A fraction of the photo to a thousandth, as keys write it. */
const thousandths = (fraction: number) => Math.round(fraction * 1000);

/**
 * What a derived key adds for the seller's taps: nothing for the engine's own pick; a lone keep tap
 * as its point, as keys were written before taps (their stored cutouts stay found); any other list
 * as a short hash of its taps in order, each kept to a thousandth of the photo.
 */
function tapsSuffix(taps: readonly KeyTap[] | null | undefined): string {
  if (!taps?.length) return '';
  const [first] = taps;
  if (taps.length === 1 && first!.keep) return `-${thousandths(first!.x)}-${thousandths(first!.y)}`;
  const list = taps.map((tap) => `${thousandths(tap.x)},${thousandths(tap.y)},${tap.keep ? 'keep' : 'drop'}`).join(';');
  return `-taps-${createHash('sha256').update(list).digest('hex').slice(0, 16)}`;
}

/**
 * The upload's cutout, made once and shared by every generation from it; one per list of taps, as
 * different taps keep a different product.
 */
export function uploadCutoutKey(uploadKey: string, taps?: readonly KeyTap[] | null): string {
  return `${derivedPrefix(uploadKey)}cutout${tapsSuffix(taps)}.png`;
}

/** The outline preview the seller checks before paying, one per list of taps like the cutout it shows. */
export function uploadOutlineKey(uploadKey: string, taps?: readonly KeyTap[] | null): string {
  return `${derivedPrefix(uploadKey)}outline${tapsSuffix(taps)}.webp`;
}

export function generationOutputKey(
  userId: string,
  generationId: string,
  index: number,
  contentType: StoredContentType,
): string {
  if (!Number.isInteger(index) || index < 0) throw new InvalidKeyError(`${generationId}/${index}`);
  return assertSafeKey(`users/${userId}/generations/${generationId}/${index}.${extensionFor(contentType)}`);
}

export function generationPrefix(userId: string, generationId: string): string {
  return assertSafeKey(`users/${userId}/generations/${generationId}`) + '/';
}

/** The upload a key belongs to: the upload itself, or a file made from it (cutout, rendition). */
export interface UploadOfKey {
  userId: string;
  fileId: string;
}

/** Reads the layout back: whose upload a key is, or null for any other key (a generation's output). */
export function uploadOfKey(key: string): UploadOfKey | null {
  const match = /^users\/([^/]+)\/uploads\/([^/.]+)(?:\.[a-z0-9]+|\/[^/]+)$/.exec(key);
  return match ? { userId: match[1]!, fileId: match[2]! } : null;
}

/**
 * A marketplace export of one output, in its generation's folder (deleted with it). One file per
 * output, preset and format: asking for the same export again finds it instead of rendering it.
 */
export function exportKey(
  userId: string,
  generationId: string,
  index: number,
  preset: string,
  contentType: StoredContentType,
): string {
  if (!Number.isInteger(index) || index < 0) throw new InvalidKeyError(`${generationId}/${index}`);
  return assertSafeKey(
    `users/${userId}/generations/${generationId}/exports/${index}-${preset}.${extensionFor(contentType)}`,
  );
}
