/** Why a generation gives back credits under one key of its own rather than slot by slot. */
export type GenerationRefundReason =
  /** Redis refused the generation's job: nothing will ever run it. */
  | 'enqueue'
  /** The sweeper found it lost before it had slots. */
  | 'sweep'
  /** Smart generation: the product is one we do not support yet. */
  | 'unsupported'
  /** Smart generation: fewer styles were recommended than were paid for. */
  | 'unused'
  /** Smart generation: the recommendation step failed for good. */
  | 'recommendation';

/** A retried style's moves carry its attempt; the first attempt keeps the key it always had. */
function slotKey(move: 'reserve' | 'settle' | 'refund', generationId: string, index: number, attempt: number): string {
  const base = `${move}:${generationId}:${index}`;
  return attempt === 0 ? base : `${base}:retry-${attempt}`;
}

/**
 * The idempotency key of every ledger move a generation makes: a move repeated under its key (a
 * retried job, a replayed request, two paths settling one slot) moves nothing the second time. A
 * retried style is a new attempt of the same slot whose moves must not collide with the earlier
 * attempt's (that one's refund already happened), so attempts after the first carry their number.
 */
export const ledgerKeys = {
  /** The whole generation's credits, reserved when it opens. */
  reserve: (generationId: string) => `reserve:${generationId}`,
  /** One slot's credit: a slot a seller added later, or a retried style's new attempt. */
  reserveSlot: (generationId: string, index: number, attempt = 0) => slotKey('reserve', generationId, index, attempt),
  /** A slot's output was stored: its credit is spent. */
  settle: (generationId: string, index: number, attempt = 0) => slotKey('settle', generationId, index, attempt),
  /** A slot failed for good: its credit comes back. */
  refundSlot: (generationId: string, index: number, attempt = 0) => slotKey('refund', generationId, index, attempt),
  /** Credits the generation gives back at once, not per slot. */
  refundGeneration: (generationId: string, reason: GenerationRefundReason) => `refund:${generationId}:${reason}`,
};
