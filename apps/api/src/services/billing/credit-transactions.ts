import type { CreditBalance } from '@prodshot/contracts';
import {
  inTransaction,
  type ExpireInput,
  type GiveBackInput,
  type GrantInput,
  type LedgerResult,
  type Repositories,
  type TakeBackInput,
} from '@prodshot/db';
import type { AppDeps } from '../../deps.js';

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

/**
 * The one place billing changes credits: `work` runs in one transaction with the ledger (so a
 * webhook's event id, the subscription row and the grant commit or roll back together), and
 * every balance that moved is announced through `onCreditsChanged` once committed.
 */
export class CreditTransactions {
  constructor(private readonly deps: Pick<AppDeps, 'db' | 'onCreditsChanged'>) {}

  async run<T>(work: (repos: Repositories, credits: CreditChanges) => Promise<T>): Promise<T> {
    const moved = new Map<string, CreditBalance>();
    const result = await inTransaction(this.deps.db, async (repos) => {
      const ledger = repos.credits;
      const track = async (userId: string, movement: Promise<LedgerResult>) => {
        const outcome = await movement;
        if (outcome.applied) moved.set(userId, outcome.balance);
        return outcome;
      };
      return work(repos, {
        resetSubscription: (input) => track(input.userId, ledger.resetSubscription(input)),
        grantAddOn: (input) => track(input.userId, ledger.grantAddOn(input)),
        expireSubscription: (input) => track(input.userId, ledger.expireSubscription(input)),
        takeBack: (input) => track(input.purchase.user_id, ledger.takeBack(input)),
        giveBack: (input) => track(input.purchase.user_id, ledger.giveBack(input)),
      });
    });
    for (const [userId, balance] of moved) this.notify(userId, balance);
    return result;
  }

  private notify(userId: string, balance: CreditBalance): void {
    try {
      this.deps.onCreditsChanged?.(userId, balance);
    } catch {
      // A listener's failure (a socket down) must not turn a committed payment into an error answer.
    }
  }
}
