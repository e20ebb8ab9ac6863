import { shotDownloadPath, type DownloadQuery, type ShotFile, type ShotRef } from '@prodshot/contracts';
import { requestBlob } from './api-client.js';

/**
 * Saves a shot under our name rather than its storage key: the full-size JPEG a phone and a
 * marketplace take, or with `file` 'original' the PNG as it was made. The file comes through the
 * API from the app's own origin (a fetch of a MinIO or S3 link on another origin would need the
 * bucket's CORS), and a blob URL's download name holds where a cross-origin link's would not.
 * `baseName` has no extension: the file gets the one its bytes call for.
 */
export async function downloadShot(shot: ShotRef, baseName: string, file?: DownloadQuery['file']): Promise<void> {
  await saveBlob(await requestBlob(shotDownloadPath(shot, file)), baseName);
}

const KINDS: Record<ShotFile['contentType'], string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
};

/** 'PNG · 18 MB': a file offered as a choice says what it is and what it weighs; its kind alone while its size is unknown. */
export function fileLabel(file: ShotFile): string {
  return file.bytes === null ? KINDS[file.contentType] : `${KINDS[file.contentType]} · ${byteSize(file.bytes)}`;
}

/** Sizes as phones and Windows count them (1 MB = 1024² bytes): whole MB from 10, one decimal below, KB under 1 MB. */
export function byteSize(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  if (mb >= 10) return `${Math.round(mb)} MB`;
  if (mb >= 1) return `${mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
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
export const editorDownloadName = (product: string | undefined | null, at = Date.now()) =>
  `${slugify(product)}-image-${at}`;
export const generationDownloadName = (id: string) => `generation-${id}`;
/** `product-shot-{timestamp}` (docs/decisions.md), with the seller's product title in place of `product` once they give one. */
export const smartResultDownloadName = (product: string | undefined | null, at = Date.now()) =>
  `${slugify(product)}-shot-${at}`;
