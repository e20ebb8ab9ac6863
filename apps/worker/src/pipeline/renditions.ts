import { makeRenditions } from '@prodshot/imaging';
import { RENDITION_SIZES, renditionKey, type ObjectStore, type RenditionName } from '@prodshot/storage';

/** Writes the thumbnail and preview of a stored image beside it, so lists never fetch the full file. */
export async function storeRenditions(store: ObjectStore, key: string, image: Buffer): Promise<void> {
  const made = await makeRenditions(image, RENDITION_SIZES);
  await Promise.all((Object.keys(made) as RenditionName[]).map((name) => store.put(renditionKey(key, name), made[name], 'image/webp')));
}
