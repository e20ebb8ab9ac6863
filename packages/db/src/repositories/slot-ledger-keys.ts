/** The ledger moves one output slot makes: its credit reserved, then settled or refunded. */
export type SlotLedgerMove = 'reserve' | 'settle' | 'refund';

/**
 * The idempotency key of a slot's ledger move. A retried style is a new attempt of the same slot
 * whose moves must not collide with the earlier attempt's (that one's refund already happened), so
 * attempts after the first carry their number; the first keeps the key it always had.
 */
export function slotLedgerKey(move: SlotLedgerMove, generationId: string, index: number, attempt = 0): string {
  const base = `${move}:${generationId}:${index}`;
  return attempt === 0 ? base : `${base}:retry-${attempt}`;
}
