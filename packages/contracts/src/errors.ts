import { Type, type Static } from 'typebox';

/**
 * Body of every non-OK API answer (Fastify's error shape). The web client shows `message`,
 * the spec's "error carrying the server's message". `code` is a stable machine-readable code,
 * e.g. 'not_found', 'insufficient_credits'. Every route's error statuses reference this schema.
 */
export const ApiErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  code: Type.Optional(Type.String()),
});
export type ApiErrorBody = Static<typeof ApiErrorBody>;

/**
 * Calls that start paid work (and uploads) accept this header: the same key from the same user
 * within `IDEMPOTENCY_WINDOW_HOURS` answers with the first call's result and charges nothing more.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
export const IDEMPOTENCY_WINDOW_HOURS = 24;
/** 422 when a key comes back with a different request. */
export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for a different request.';
