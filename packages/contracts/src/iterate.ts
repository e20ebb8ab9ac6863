import { Type, type Static } from 'typebox';
import { Accepted, Queued } from './accepted.js';
import { SMART_STYLES_MAX } from './images.js';

/** More like this makes one output: one credit (docs/decisions.md: one credit per image). */
export const MORE_LIKE_THIS_CREDITS = 1;
/** A retried style costs what a style costs, and only when it succeeds (a failed retry is refunded). */
export const RETRY_STYLE_CREDITS = 1;

/** Which output of a generation: its slot index (a manual request has at most four, a smart one SMART_STYLES_MAX). */
export const OutputParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    index: Type.Integer({ minimum: 0, maximum: SMART_STYLES_MAX - 1 }),
  },
  { additionalProperties: false },
);
export type OutputParams = Static<typeof OutputParams>;

/** An output by its generation and slot: where a More like this came from. */
export const OutputRef = Type.Object({ generationId: Type.String(), index: Type.Integer({ minimum: 0 }) });
export type OutputRef = Static<typeof OutputRef>;

/**
 * `POST /api/generations/:id/outputs/:index/more-like-this` (202): a new generation of one output
 * in the same scene with a new seed; follow it at GET /api/generations/:generationId.
 */
export const MoreLikeThisResponse = Accepted({
  generationId: Type.String(),
  status: Queued,
  from: OutputRef,
  seed: Type.Integer(),
});
export type MoreLikeThisResponse = Static<typeof MoreLikeThisResponse>;

/** `POST /api/generations/:id/styles/:index/retry` (202): the failed style is queued again as its next attempt. */
export const RetryStyleResponse = Accepted({
  generationId: Type.String(),
  index: Type.Integer({ minimum: 0 }),
  attempt: Type.Integer({ minimum: 1 }),
  status: Queued,
});
export type RetryStyleResponse = Static<typeof RetryStyleResponse>;
