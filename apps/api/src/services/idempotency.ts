import { IDEMPOTENCY_KEY_REUSED_MESSAGE } from '@prodshot/contracts';
import type { IdempotencyClaim, IdempotencyKeyRow, IdempotencyKeysRepository } from '@prodshot/db';
import { HttpError } from './http-error.js';

/** What a key's first request started: a generation, an upload or a batch. */
export type KeyedKind = 'generation' | 'image' | 'batch';
type KeyTarget = { generationId: string } | { imageId: string } | { batchId: string };

/** The key's first request holds it: the work that would have started is rolled back and the first one's answered instead. */
export class IdempotentReplayError extends Error {
  constructor(readonly held: IdempotencyKeyRow) {
    super(`Idempotency-Key ${held.key} is held by an earlier request`);
  }
}

/**
 * The one claim/replay path of every call that accepts an Idempotency-Key (uploads, generations,
 * batches): a repeat of the same request (a retry, a double click, a reload) gets what the first
 * one started and starts nothing more; the same key with another request is 422. `start` claims
 * the key where its work is committed (claimKey), so two requests racing on one key start once.
 */
export async function oncePerKey(
  keys: IdempotencyKeysRepository,
  claim: IdempotencyClaim | undefined,
  kind: KeyedKind,
  start: () => Promise<string>,
): Promise<string> {
  const held = claim && (await keys.find(claim.userId, claim.key));
  if (held) return heldTarget(held, claim, kind);
  try {
    return await start();
  } catch (error) {
    if (!(claim && error instanceof IdempotentReplayError)) throw error;
    return heldTarget(error.held, claim, kind);
  }
}

/** Records that the key started `target`; another request holding it throws IdempotentReplayError, which oncePerKey answers. */
export async function claimKey(
  keys: IdempotencyKeysRepository,
  claim: IdempotencyClaim | undefined,
  target: KeyTarget,
): Promise<void> {
  const held = claim && (await keys.claim(claim, target));
  if (held) throw new IdempotentReplayError(held);
}

/** What the key's first request started, if this request is truly the same one; 422 otherwise. */
function heldTarget(held: IdempotencyKeyRow, claim: IdempotencyClaim, kind: KeyedKind): string {
  const target = { generation: held.generation_id, image: held.image_id, batch: held.batch_id }[kind];
  if (held.request_hash !== claim.requestHash || !target)
    throw new HttpError(422, IDEMPOTENCY_KEY_REUSED_MESSAGE, 'idempotency_key_reused');
  return target;
}
