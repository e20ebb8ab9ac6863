import type { PlanId } from '@prodshot/contracts';
import type { CreditsRepository } from '@prodshot/db';
import { QUEUE_ORDER, type QueueOrder } from '@prodshot/queue';
import type { FreeAllowanceCounter, FreeWork } from './free-allowance-counter.js';
import { InsufficientCreditsHttpError } from '../http-error.js';

export interface FreeAllowanceLimits {
  analysesPerDay: number;
  recommendationsPerDay: number;
}

/** One use of free engine work: the upload analysed (asked again, it counts once), or a fresh id per recommendation. */
export interface FreeUse {
  work: FreeWork;
  id: string;
}

const WORK_NAMES: Record<FreeWork, string> = { analysis: 'product analyses', recommendation: 'style recommendations' };

export function freeAllowanceSpentMessage(work: FreeWork, perDay: number): string {
  return `Accounts without a plan or credits get ${perDay} free ${WORK_NAMES[work]} a day (UTC), and today's are used. Buy a plan or add-on credits to continue.`;
}

/**
 * 402 in the shape of every credits refusal (where to buy credits included): one credit, or a plan,
 * is what takes an account off the allowance.
 */
export class FreeAllowanceSpentError extends InsufficientCreditsHttpError {
  constructor(work: FreeWork, perDay: number, available: number) {
    super(1, available, freeAllowanceSpentMessage(work, perDay));
  }
}

/**
 * Engine work that costs no credits (upload analysis, style recommendations) for accounts that pay
 * nothing: an account with no plan in effect and no credits gets a small daily allowance of each,
 * run behind every paying seller's jobs. A seller with a plan or any credits is never counted.
 */
export class FreeAllowance {
  constructor(
    private readonly deps: {
      credits: Pick<CreditsRepository, 'balance'>;
      counter: FreeAllowanceCounter;
      limits: FreeAllowanceLimits;
    },
  ) {}

  /**
   * The place in the queue of one use: `paying` for a seller with a plan or credits; for an account
   * with nothing, the use is counted against today's allowance and goes behind paying sellers' jobs,
   * or is refused with 402 once the allowance is spent.
   */
  async place(userId: string, plan: PlanId, use: FreeUse, paying: QueueOrder): Promise<QueueOrder> {
    if (plan !== 'none') return paying;
    const { subscriptionCredits, addOnCredits } = await this.deps.credits.balance(userId);
    const available = subscriptionCredits + addOnCredits;
    if (available > 0) return paying;
    const limit = use.work === 'analysis' ? this.deps.limits.analysesPerDay : this.deps.limits.recommendationsPerDay;
    if (!(await this.deps.counter.take({ userId, work: use.work, useId: use.id, limit })))
      throw new FreeAllowanceSpentError(use.work, limit, available);
    return QUEUE_ORDER.freeAccount;
  }
}
