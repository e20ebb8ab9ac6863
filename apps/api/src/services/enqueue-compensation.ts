import { settlement, type CreditBalance, type SettlementDeps } from '@prodshot/db';

export interface CompensationDeps extends SettlementDeps {
  onCreditsChanged?: ((userId: string, balance: CreditBalance) => void) | undefined;
}

/**
 * What a call opened when Redis refused its job: the generation's open slots (or the one slot it
 * added) fail and their credits come back, so work that can never run holds no credit.
 */
export async function abandon(
  deps: CompensationDeps,
  userId: string,
  generationId: string,
  slotIndex: number | undefined,
): Promise<void> {
  const message = 'The generation could not be queued. Your credits were refunded.';
  const refunded =
    slotIndex === undefined
      ? await settlement.abandonGeneration(deps, { userId, generationId }, message)
      : await settlement.abandonSlot(deps, { userId, generationId, index: slotIndex }, message);
  if (refunded) deps.onCreditsChanged?.(userId, refunded.balance);
}
