import {
  CreditsRepository,
  type CreditBalance,
  type Db,
  type ExpireInput,
  type GiveBackInput,
  type GrantInput,
  type LedgerResult,
  type TakeBackInput,
} from '@prodshot/db';
import type { AppDeps } from '../deps.js';

/** Called after a commit that moved a user's credits: the hook for a `credits:update` socket event. */
export type CreditsChangedListener = (userId: string, balance: CreditBalance) => void;

/** The billing credit movements (plan allowances, add-on packs, and money taken back), joined to the caller's transaction. */
export interface CreditChanges {
  resetSubscription(input: GrantInput): Promise<LedgerResult>;
  grantAddOn(input: GrantInput): Promise<LedgerResult>;
  expireSubscription(input: ExpireInput): Promise<LedgerResult>;
  takeBack(input: TakeBackInput): Promise<LedgerResult>;
  giveBack(input: GiveBackInput): Promise<LedgerResult>;
}

/** A transaction, typed as the database it runs on: repositories take either. */
export type BillingTx = Db;

/**
 * The one place billing changes credits: `work` runs in one transaction with the ledger (so a
 * webhook's event id, the subscription row and the grant commit or roll back together), and
 * every balance that moved is announced through `deps.onCreditsChanged` once committed.
 */
export async function runCreditTransaction<T>(deps: Pick<AppDeps, 'db' | 'onCreditsChanged'>, work: (tx: BillingTx, credits: CreditChanges) => Promise<T>): Promise<T> {
  const moved = new Map<string, CreditBalance>();
  const result = await deps.db.transaction().execute(async (tx) => {
    const ledger = new CreditsRepository(tx);
    const track = async (userId: string, movement: Promise<LedgerResult>) => {
      const outcome = await movement;
      if (outcome.applied) moved.set(userId, outcome.balance);
      return outcome;
    };
    return work(tx, {
      resetSubscription: (input) => track(input.userId, ledger.resetSubscription(input)),
      grantAddOn: (input) => track(input.userId, ledger.grantAddOn(input)),
      expireSubscription: (input) => track(input.userId, ledger.expireSubscription(input)),
      takeBack: (input) => track(input.purchase.user_id, ledger.takeBack(input)),
      giveBack: (input) => track(input.purchase.user_id, ledger.giveBack(input)),
    });
  });
  for (const [userId, balance] of moved) notifyCreditsChanged(deps, userId, balance);
  return result;
}

export function notifyCreditsChanged(deps: Pick<AppDeps, 'onCreditsChanged'>, userId: string, balance: CreditBalance): void {
  try {
    deps.onCreditsChanged?.(userId, balance);
  } catch {
    // A listener's failure (a socket down) must not turn a committed payment into an error answer.
  }
}
