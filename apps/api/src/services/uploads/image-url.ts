import { derivedPrefix, uploadOfKey, type ObjectStore } from '@prodshot/storage';
import type { ImageRow, ImagesRepository } from '@prodshot/db';
import { HttpError } from '../http-error.js';

/** docs/product-spec.md §8's fallback route for an upload's image, `/uploads/{id}?fallback=true`, at the app's origin. */
const FALLBACK_ROUTE = /^\/uploads\/([A-Za-z0-9-]{1,64})$/;

const NOT_OURS = 'imageUrl must be a link to one of your uploads as this app gave it (or send imageId)';

export function imageNotFound(): HttpError {
  return new HttpError(404, 'Image not found', 'image_not_found');
}

/** The id the fallback route names, or null when the URL is not that route at our origin. */
function fallbackRouteId(url: string, appOrigin: string): string | null {
  try {
    const parsed = new URL(url, appOrigin);
    if (parsed.origin !== new URL(appOrigin).origin) return null;
    return FALLBACK_ROUTE.exec(parsed.pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The caller's upload an `imageUrl` names, when it is one of our own links: a signed file link
 * (filesystem or S3, the upload or one of its renditions) or the fallback route. The URL is only
 * read, never fetched. The key decides, not the signature or its expiry: the caller is signed in
 * and must own the upload, which a signature could only repeat, and a page left open past its
 * link's hour still names the same upload.
 *
 * A URL that is not ours (another host, another route, malformed) is 400; an upload that is not
 * the caller's, or no longer exists, is 404 like any id of theirs.
 */
export async function uploadByUrl(
  deps: { store: ObjectStore; images: ImagesRepository; appOrigin: string },
  userId: string,
  url: string,
): Promise<ImageRow> {
  const fallbackId = fallbackRouteId(url, deps.appOrigin);
  if (fallbackId) {
    const image = await deps.images.findOwned(userId, fallbackId);
    if (!image) throw imageNotFound();
    return image;
  }
  const key = deps.store.keyOfUrl(url, deps.appOrigin);
  if (!key) throw new HttpError(400, NOT_OURS, 'foreign_image_url');
  const upload = uploadOfKey(key);
  if (!upload) {
    // A generated shot of the caller's is no upload to start from; another user's file is simply not found.
    if (key.startsWith(`users/${userId}/`))
      throw new HttpError(400, 'imageUrl names a generated shot: generations start from an upload', 'not_an_upload');
    throw imageNotFound();
  }
  if (upload.userId !== userId) throw imageNotFound();
  const image = await deps.images.findOwned(userId, upload.fileId);
  if (!image || !(image.storage_key === key || key.startsWith(derivedPrefix(image.storage_key)))) throw imageNotFound();
  return image;
}
