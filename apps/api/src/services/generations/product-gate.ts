import { SUPPORTED_PRODUCT_LIST, UNSUPPORTED_PRODUCT_CODE, UNSUPPORTED_PRODUCT_MESSAGE } from '@prodshot/contracts';
import type { ImageRow } from '@prodshot/db';
import { HttpError } from '../http-error.js';

/** An upload its analysis read as a kind Prodshot does not shoot yet (docs/decisions.md, "Product kind"). */
export function readAsUnsupported(image: ImageRow): boolean {
  return Boolean(image.subject?.found && image.subject.product?.supported === false);
}

/**
 * 422 `unsupported_product` before anything is reserved, naming the photos by their place and file:
 * the batch draft shows the same reading under each photo, so a seller who confirmed anyway (or an
 * API client) is told which to take out. The photo's reading decides, never the title sent.
 */
export function refuseUnsupported(images: readonly ImageRow[]): void {
  const refused = images.flatMap((image, n) => (readAsUnsupported(image) ? [{ image, place: n + 1 }] : []));
  if (refused.length === 0) return;
  const named = refused.map(({ image, place }) => `photo ${place} (${image.name})`).join(', ');
  throw new HttpError(
    422,
    `${UNSUPPORTED_PRODUCT_MESSAGE}: take out ${named} to start the batch.`,
    UNSUPPORTED_PRODUCT_CODE,
    {
      imageIds: refused.map(({ image }) => image.id),
      supportedList: SUPPORTED_PRODUCT_LIST,
    },
  );
}
