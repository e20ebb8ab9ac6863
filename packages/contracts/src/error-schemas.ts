import { Type, type Static, type TSchema } from 'typebox';
import { BUY_CREDITS_URL, INSUFFICIENT_CREDITS_CODE } from './batches.js';
import { ApiErrorBody } from './errors.js';
import { PlanFeatureForbiddenBody } from './plans.js';

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
 * Every error body, once, by the name it has in the OpenAPI document's components.schemas: the
 * routes' error answers reference these rather than repeating them. The app adds them as shared
 * schemas (`app.addSchema`) before any route.
 */
const ERROR_COMPONENTS = {
  ApiError: ApiErrorBody,
  InsufficientCreditsError: InsufficientCreditsErrorBody,
  GenerationTimeoutError: GenerationTimeoutErrorBody,
  ExportFormatError: ExportFormatErrorBody,
  UnsupportedProductError: UnsupportedProductErrorBody,
  PlanFeatureForbiddenError: PlanFeatureForbiddenBody,
} satisfies Record<string, TSchema>;

/** The error bodies as shared schemas, each with its component name as `$id`. */
export const errorSchemaComponents: TSchema[] = Object.entries(ERROR_COMPONENTS).map(([name, schema]) => ({
  ...schema,
  $id: name,
}));

/** A reference to one of the error bodies above, as a route's response schema takes it. */
function errorRef(schema: TSchema): TSchema {
  const name = Object.entries(ERROR_COMPONENTS).find(([, component]) => component === schema)?.[0];
  if (!name) throw new Error('errorResponses: a special error body must be one of ERROR_COMPONENTS');
  return Type.Unsafe({ $ref: `${name}#` });
}

/** The common error body, by reference: for answers every route may give (401, 503) that the docs add beside the route's own. */
export const apiErrorRef: TSchema = errorRef(ApiErrorBody);

/**
 * The error answers of a route, one per status it gives, for its `response` schema: each a
 * reference to the common shape unless `special` names a richer body (one of ERROR_COMPONENTS)
 * for that status.
 */
export function errorResponses<S extends number>(
  statuses: readonly S[],
  special: Partial<Record<S, TSchema>> = {},
): Record<S, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorRef(special[status] ?? ApiErrorBody)])) as Record<
    S,
    TSchema
  >;
}
