import { BUY_CREDITS_URL, INSUFFICIENT_CREDITS_CODE, insufficientCreditsMessage } from '@prodshot/contracts';
import { InsufficientCreditsError, ledgerKeys, type CreditBalance, type CreditsRepository } from '@prodshot/db';
import { HttpError } from './http-error.js';

/** One generation's credits to reserve, under the ledger key that keeps it from being taken twice. */
export interface Reservation {
  generationId: string;
  amount: number;
  idempotencyKey: string;
}

export function reservation(generationId: string, amount: number): Reservation {
  return { generationId, amount, idempotencyKey: ledgerKeys.reserve(generationId) };
}

/**
 * Reserves each generation's credits on its own ledger row (refunds are per generation). A
 * shortfall on any of them names the total the whole call needed against the balance it began with.
 */
export async function reserveAll(credits: CreditsRepository, userId: string, reservations: Reservation[]) {
  const needed = reservations.reduce((sum, r) => sum + r.amount, 0);
  let moved = 0;
  let balance: CreditBalance | undefined;
  for (const r of reservations) {
    if (r.amount <= 0) continue;
    try {
      const result = await credits.reserve({ userId, ...r });
      if (result.applied) ({ balance } = result);
      moved += result.moved;
    } catch (error) {
      if (error instanceof InsufficientCreditsError)
        throw new InsufficientCreditsError(needed, error.available + moved);
      throw error;
    }
  }
  return { moved, balance };
}

/** 402 for paid work the seller's credits do not cover: the shortfall, and where to buy credits. */
export class InsufficientCreditsHttpError extends HttpError {
  constructor(needed: number, available: number, message = insufficientCreditsMessage(needed, available)) {
    super(402, message, INSUFFICIENT_CREDITS_CODE, {
      needed,
      available,
      shortfall: needed - available,
      buyCreditsUrl: BUY_CREDITS_URL,
    });
  }
}
