import { Type, type Static } from 'typebox';
import { PRODUCT_TITLE_MAX_LENGTH } from './images.js';

/**
 * `PUT /api/images/:id/title`: names the upload's product. Blank (or only spaces) clears it; the
 * title is kept trimmed. Longer than PRODUCT_TITLE_MAX_LENGTH is refused with 400, never cut.
 */
export const ImageTitleRequest = Type.Object(
  { productTitle: Type.String({ maxLength: PRODUCT_TITLE_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type ImageTitleRequest = Static<typeof ImageTitleRequest>;

export const ImageTitleParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type ImageTitleParams = Static<typeof ImageTitleParams>;

/** The stored form of a title: trimmed, and null when nothing is left. */
export function cleanProductTitle(title: string | null | undefined): string | null {
  const trimmed = (title ?? '').replace(/\s+/g, ' ').trim();
  return trimmed.length > 0 ? trimmed : null;
}
