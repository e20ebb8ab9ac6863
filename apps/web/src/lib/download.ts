import { shotDownloadPath, type ShotRef } from '@prodshot/contracts';
import { requestBlob } from './api-client.js';

/**
 * Saves a shot under our name rather than its storage key. The file comes through the API from
 * the app's own origin (a fetch of a MinIO or S3 link on another origin would need the bucket's
 * CORS), and a blob URL's download name holds where a cross-origin link's would not.
 * `baseName` has no extension: the file gets the one its bytes call for.
 */
export async function downloadShot(shot: ShotRef, baseName: string): Promise<void> {
  await saveBlob(await requestBlob(shotDownloadPath(shot)), baseName);
}

/** Saves a blob under `name`, its extension replaced by the one the bytes are (PNG, JPEG, WebP). */
export async function saveBlob(blob: Blob, name: string): Promise<string> {
  const filename = `${name.replace(/\.(png|jpe?g|webp)$/i, '')}.${await imageExtension(blob)}`;
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  return filename;
}

const BY_TYPE: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The extension an image's bytes call for, by their magic numbers; the declared type when they say nothing. */
export async function imageExtension(blob: Blob): Promise<string> {
  const head = new Uint8Array(await blob.slice(0, 12).arrayBuffer());
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0x89 && ascii(1, 4) === 'PNG') return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return BY_TYPE[blob.type.split(';')[0]!.trim()] ?? 'png';
}

export function slugify(text: string | undefined | null): string {
  const slug = (text ?? '')
    .toLowerCase()
    .replace(/\.[a-z0-9]+$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'product';
}

/** Names without an extension: downloadShot adds the one the file's bytes have. */
export const editorDownloadName = (product: string | undefined | null, at = Date.now()) => `${slugify(product)}-image-${at}`;
export const generationDownloadName = (id: string) => `generation-${id}`;
/** `product-shot-{timestamp}` (docs/decisions.md), with the seller's product title in place of `product` once they give one. */
export const smartResultDownloadName = (product: string | undefined | null, at = Date.now()) => `${slugify(product)}-shot-${at}`;
