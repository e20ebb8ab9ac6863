import type { ShotRef } from '@prodshot/contracts';
import { api } from './api-client.js';

/**
 * Saves a shot under our name rather than its storage key. The file comes through the API from
 * the app's own origin (a fetch of a MinIO or S3 link on another origin would need the bucket's
 * CORS), and a blob URL's download name holds where a cross-origin link's would not.
 */
export async function downloadShot(shot: ShotRef, filename: string): Promise<void> {
  const blob = await api.shotFile(shot);
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
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

export const editorDownloadName = (product: string | undefined | null, at = Date.now()) => `${slugify(product)}-image-${at}.png`;
export const generationDownloadName = (id: string) => `generation-${id}.png`;
/** `product-shot-{timestamp}.jpg` (decisions.md), with the seller's product title in place of `product` once they give one. */
export const smartResultDownloadName = (product: string | undefined | null, at = Date.now()) => `${slugify(product)}-shot-${at}.jpg`;
