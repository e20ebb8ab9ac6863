import Type, { type Static } from 'typebox';
import { ImageDto, PRODUCT_TITLE_MAX_LENGTH } from './images.js';

/**
 * `PUT /api/images/:id/title`: names the upload's product. Blank (or only spaces) clears it; the
 * title is kept trimmed. Longer than PRODUCT_TITLE_MAX_LENGTH is refused with 400, never cut.
 */
export const ImageTitleRequest = Type.Object({ productTitle: Type.String({ maxLength: PRODUCT_TITLE_MAX_LENGTH }) }, { additionalProperties: false });
export type ImageTitleRequest = Static<typeof ImageTitleRequest>;

export const ImageTitleParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type ImageTitleParams = Static<typeof ImageTitleParams>;

export const ImageResponse = Type.Object({ data: ImageDto });
export type ImageResponse = Static<typeof ImageResponse>;

/** The stored form of a title: trimmed, and null when nothing is left. */
export function cleanProductTitle(title: string | null | undefined): string | null {
  const trimmed = (title ?? '').replace(/\s+/g, ' ').trim();
  return trimmed.length > 0 ? trimmed : null;
}

/** The title call's refusals (400 too long or malformed, 404 not the caller's image), documented with it. */
export const ImageTitleErrorResponse = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  code: Type.Optional(Type.String()),
});
