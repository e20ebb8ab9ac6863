import { makeDownloadCopy, makeRenditions } from '@prodshot/imaging';
import {
  downloadCopyKey,
  RENDITION_SIZES,
  renditionKey,
  type ObjectStore,
  type RenditionName,
} from '@prodshot/storage';

/**
 * Writes the thumbnail and preview of a stored image beside it, so lists never fetch the full file:
 * the ones the engine made with the image when it did (all of them), else made from the image.
 */
export async function storeRenditions(
  store: ObjectStore,
  key: string,
  image: Buffer,
  madeWithIt?: Partial<Record<RenditionName, Buffer>>,
): Promise<void> {
  const complete = madeWithIt && (Object.keys(RENDITION_SIZES) as RenditionName[]).every((name) => madeWithIt[name]);
  const made = complete ? (madeWithIt as Record<RenditionName, Buffer>) : await makeRenditions(image, RENDITION_SIZES);
  await Promise.all(
    (Object.keys(made) as RenditionName[]).map((name) => store.put(renditionKey(key, name), made[name], 'image/webp')),
  );
}

/**
 * Writes the copy Download saves beside a PNG output: a full-size JPEG a phone and a marketplace
 * take (a 4096 px shot is 19 MB as PNG, 2 MB as this), or a WebP for a cutout. Made here, with the
 * shot, so its size is known before anyone downloads it (a zip names its own) and Download streams
 * a stored file. An output that is a JPEG already is its own download: null.
 */
export async function storeDownloadCopy(
  store: ObjectStore,
  key: string,
  image: Buffer,
  contentType: string,
): Promise<{ key: string; bytes: number } | null> {
  if (contentType !== 'image/png') return null;
  const copy = await makeDownloadCopy(image);
  const copyKey = downloadCopyKey(key, copy.contentType);
  await store.put(copyKey, copy.data, copy.contentType);
  return { key: copyKey, bytes: copy.data.length };
}
