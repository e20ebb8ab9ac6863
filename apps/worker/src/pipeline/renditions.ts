import { makeRenditions } from '@prodshot/imaging';
import { RENDITION_SIZES, renditionKey, type ObjectStore, type RenditionName } from '@prodshot/storage';

/**
 * Writes the thumbnail and preview of a stored image beside it, so lists never fetch the full file:
 * the ones the engine made with the image when it did (all of them), else made from the image.
 */
export async function storeRenditions(store: ObjectStore, key: string, image: Buffer, madeWithIt?: Partial<Record<RenditionName, Buffer>>): Promise<void> {
  const complete = madeWithIt && (Object.keys(RENDITION_SIZES) as RenditionName[]).every((name) => madeWithIt[name]);
  const made = complete ? (madeWithIt as Record<RenditionName, Buffer>) : await makeRenditions(image, RENDITION_SIZES);
  await Promise.all((Object.keys(made) as RenditionName[]).map((name) => store.put(renditionKey(key, name), made[name], 'image/webp')));
}
