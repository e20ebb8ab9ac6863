import { IDEMPOTENCY_KEY_REUSED_MESSAGE } from '@prodshot/contracts';
import type { IdempotencyClaim, IdempotencyKeyRow } from '@prodshot/db';
import { HttpError } from './http-error.js';

/** The key's first request holds it: the work that would have started is rolled back and the first one's answered instead. */
export class IdempotentReplayError extends Error {
  constructor(readonly held: IdempotencyKeyRow) {
    super(`Idempotency-Key ${held.key} is held by an earlier request`);
  }
}

/** What the key's first request started (a generation, an upload or a batch), if this request is truly the same one; 422 otherwise. */
export function heldTarget(
  held: IdempotencyKeyRow,
  claim: IdempotencyClaim,
  kind: 'generation' | 'image' | 'batch',
): string {
  const target = { generation: held.generation_id, image: held.image_id, batch: held.batch_id }[kind];
  if (held.request_hash !== claim.requestHash || !target)
    throw new HttpError(422, IDEMPOTENCY_KEY_REUSED_MESSAGE, 'idempotency_key_reused');
  return target;
}
