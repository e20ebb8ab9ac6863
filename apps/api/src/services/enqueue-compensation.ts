import { inTransaction, slotLedgerKey, type CreditBalance, type Db, type GenerationsRepository } from '@prodshot/db';

export interface CompensationDeps {
  db: Db;
  generations: GenerationsRepository;
  onCreditsChanged?: ((userId: string, balance: CreditBalance) => void) | undefined;
}

/**
 * What a call opened when Redis refused its job: the generation's open slots (or the one slot it
 * added) fail and their credits come back, so work that can never run holds no credit.
 */
export async function abandon(deps: CompensationDeps, userId: string, generationId: string, slotIndex: number | undefined): Promise<void> {
  const message = 'The generation could not be queued. Your credits were refunded.';
  const refunded = await inTransaction(deps.db, async ({ generations, credits }) => {
    if (slotIndex === undefined) {
      await generations.failOpenStyles(generationId, message);
      return credits.refund({ userId, generationId, amount: 1_000, idempotencyKey: `refund:${generationId}:enqueue` });
    }
    if (!(await generations.failStyle(generationId, slotIndex, message))) return null;
    const attempt = await generations.slotAttempt(generationId, slotIndex);
    return credits.refund({ userId, generationId, amount: 1, idempotencyKey: slotLedgerKey('refund', generationId, slotIndex, attempt) });
  });
  await deps.generations.settleIfDone(generationId, message);
  if (refunded?.applied) deps.onCreditsChanged?.(userId, refunded.balance);
}
