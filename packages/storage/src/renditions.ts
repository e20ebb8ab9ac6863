import { derivedPrefix, extensionFor } from './keys.js';
import type { ObjectStore } from './object-store.js';

/** The smaller WebP copies kept beside every stored image, by their longest side in pixels. */
export const RENDITION_SIZES = { thumbnail: 512, preview: 1280 } as const;
export type RenditionName = keyof typeof RENDITION_SIZES;

export function renditionKey(key: string, name: RenditionName): string {
  return `${derivedPrefix(key)}${name}.webp`;
}

/**
 * The copy of an output that Download saves by default (a JPEG, or a WebP for a cutout), beside it:
 * in the generation's folder, so it goes whenever the output goes.
 */
export function downloadCopyKey(key: string, contentType: 'image/jpeg' | 'image/webp'): string {
  return `${derivedPrefix(key)}download.${extensionFor(contentType)}`;
}

export interface SignedImage {
  url: string;
  thumbnailUrl: string;
  previewUrl: string;
}

/**
 * Signs a stored image and its renditions. An image stored before renditions existed has none
 * yet: its full URL stands in for them, so a client never has to tell the two apart.
 */
export async function signImage(store: ObjectStore, key: string, hasRenditions: boolean): Promise<SignedImage> {
  const url = await store.signedUrl(key);
  if (!hasRenditions) return { url, thumbnailUrl: url, previewUrl: url };
  const [thumbnailUrl, previewUrl] = await Promise.all([
    store.signedUrl(renditionKey(key, 'thumbnail')),
    store.signedUrl(renditionKey(key, 'preview')),
  ]);
  return { url, thumbnailUrl, previewUrl };
}

/** Deletes a stored image and everything made from it (renditions, an upload's cutouts); idempotent. */
export async function deleteImageFiles(store: ObjectStore, key: string): Promise<void> {
  await store.delete(key);
  await store.deletePrefix(derivedPrefix(key));
}
