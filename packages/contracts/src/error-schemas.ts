import Type, { type Static, type TSchema } from 'typebox';
import { BUY_CREDITS_URL, INSUFFICIENT_CREDITS_CODE } from './batches.js';
import type { ApiErrorBody } from './errors.js';
import { PLAN_REQUIRED_CODE, UPGRADE_URL, type PlanFeature } from './plans.js';

const ErrorFields = {
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  /** Stable machine-readable code, e.g. 'not_found', 'insufficient_credits'. */
  code: Type.Optional(Type.String()),
};

/** The body of every non-OK answer (ApiErrorBody), as a schema for the routes' responses and the OpenAPI document. */
export const ApiErrorSchema = Type.Object(ErrorFields);

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

/** 403 for a call the seller's plan does not include (PlanRequiredErrorBody): which feature, and where to upgrade. */
export const PlanRequiredErrorSchema = Type.Object({
  ...ErrorFields,
  code: Type.Literal(PLAN_REQUIRED_CODE),
  feature: Type.Unsafe<PlanFeature>(Type.String()),
  upgradeUrl: Type.Literal(UPGRADE_URL),
});

/** 504 of a synchronous generation call whose job outlived the wait: the generation goes on, at GET /api/generations/:generationId. */
export const GenerationTimeoutErrorBody = Type.Object({ ...ErrorFields, generationId: Type.Optional(Type.String()) });

/** 400 of an export or report asked in a format its preset does not take: the formats it does. */
export const ExportFormatErrorBody = Type.Object({ ...ErrorFields, formats: Type.Optional(Type.Array(Type.String())) });

/**
 * The error answers of a route, one per status it gives, for its `response` schema: each in the
 * common shape unless `special` names a richer body for that status.
 */
export function errorResponses<S extends number>(statuses: readonly S[], special: Partial<Record<S, TSchema>> = {}): Record<S, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, special[status] ?? ApiErrorSchema])) as Record<S, TSchema>;
}
