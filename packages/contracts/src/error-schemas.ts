import { Type, type Static, type TSchema } from 'typebox';
import { BUY_CREDITS_URL, INSUFFICIENT_CREDITS_CODE } from './batches.js';
import { ApiErrorBody } from './errors.js';

const ErrorFields = ApiErrorBody.properties;

/** 402 for paid work the seller's credits do not cover: how many short, and where to buy more. */
export const InsufficientCreditsErrorBody = Type.Object({
  statusCode: Type.Literal(402),
  error: Type.String(),
  message: Type.String(),
  code: Type.Literal(INSUFFICIENT_CREDITS_CODE),
  needed: Type.Integer(),
  available: Type.Integer(),
  shortfall: Type.Integer({ minimum: 1 }),
  buyCreditsUrl: Type.Literal(BUY_CREDITS_URL),
});
export type InsufficientCreditsErrorBody = Static<typeof InsufficientCreditsErrorBody> & ApiErrorBody;

/** 504 of a synchronous generation call whose job outlived the wait: the generation goes on, at GET /api/generations/:generationId. */
export const GenerationTimeoutErrorBody = Type.Object({ ...ErrorFields, generationId: Type.Optional(Type.String()) });

/** 400 of an export or report asked in a format its preset does not take: the formats it does. */
export const ExportFormatErrorBody = Type.Object({ ...ErrorFields, formats: Type.Optional(Type.Array(Type.String())) });

/** 422 `unsupported_product` of a batch: the uploads read as a kind Prodshot does not shoot yet, and the kinds it does. */
export const UnsupportedProductErrorBody = Type.Object({
  ...ErrorFields,
  imageIds: Type.Optional(Type.Array(Type.String())),
  supportedList: Type.Optional(Type.Array(Type.String())),
});

/**
 * The error answers of a route, one per status it gives, for its `response` schema: each in the
 * common shape unless `special` names a richer body for that status.
 */
export function errorResponses<S extends number>(statuses: readonly S[], special: Partial<Record<S, TSchema>> = {}): Record<S, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, special[status] ?? ApiErrorBody])) as Record<S, TSchema>;
}
