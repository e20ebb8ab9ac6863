import type { PaidPlanId, SubscriptionResponse } from '@prodshot/contracts';
import type { Repositories, SubscriptionRow } from '@prodshot/db';
import {
  addDays,
  effectivePlan,
  endSubscription,
  hasEnded,
  LOCAL_PERIOD_DAYS,
  startNewPeriod,
  subscriptionInfo,
} from './subscription-lifecycle.js';
import type { CreditTransactions } from './credit-transactions.js';

/** A subscription's current period as the payment provider states it. */
export interface ProviderPeriod {
  start: Date;
  end: Date;
}

/** The subscription row's changes that both payment providers make, and what the seller reads of it. */
export class BillingService {
  constructor(
    private readonly repos: Repositories,
    private readonly transactions: CreditTransactions,
  ) {}

  async subscription(userId: string): Promise<SubscriptionResponse> {
    await this.renewLocalIfDue(userId);
    const [row, balance, second] = await Promise.all([
      this.repos.subscriptions.findByUserId(userId),
      this.repos.credits.balance(userId),
      this.repos.subscriptions.latestCancelledSecond(userId),
    ]);
    const subscription = subscriptionInfo(row);
    return {
      subscription,
      cancelledSecondSubscription: second
        ? { plan: second.plan, cancelledAt: second.created_at.toISOString(), refunded: second.refunded }
        : null,
      subscriptionCredits: balance.subscriptionCredits,
      addOnCredits: balance.addOnCredits,
      currentPlan: subscription.plan,
      isActive: subscription.status === 'active',
      effectivePlan: effectivePlan(row),
    };
  }

  /**
   * Plan change inside a running period: the new plan waits for the next cycle (it shows as
   * pendingPlan, from endDate); a cancellation is withdrawn. `period` is the provider's word on the
   * current period, so that endDate is known even before an invoice told us.
   */
  async scheduleChange(row: SubscriptionRow, plan: PaidPlanId, period?: ProviderPeriod): Promise<void> {
    await this.repos.subscriptions.update(row.id, {
      status: 'active',
      cancelAtPeriodEnd: false,
      pendingPlan: plan === row.plan ? null : plan,
      ...(period ? { currentPeriodStart: period.start, currentPeriodEnd: period.end } : {}),
    });
  }

  /** Renewal stops; the plan and its credits last to the period's end, which the profile shows as endDate. */
  async cancelAtPeriodEnd(row: SubscriptionRow, period?: ProviderPeriod): Promise<void> {
    await this.repos.subscriptions.update(row.id, {
      status: 'canceled',
      cancelAtPeriodEnd: true,
      ...(period ? { currentPeriodStart: period.start, currentPeriodEnd: period.end } : {}),
    });
  }

  /**
   * The local provider has no processor to announce a new period, so periods roll when the
   * subscription is next read: each elapsed period resets the allowance once (keyed by its start).
   */
  async renewLocalIfDue(userId: string, now = new Date()): Promise<void> {
    const row = await this.repos.subscriptions.findByUserId(userId);
    if (!row || row.provider !== 'local' || hasEnded(row) || !row.current_period_end || row.current_period_end > now)
      return;
    const periodEnd = row.current_period_end;
    if (row.cancel_at_period_end || row.status !== 'active') {
      await this.transactions.run((repos, credits) =>
        endSubscription(repos, credits, row, `local:end:${row.id}:${periodEnd.toISOString()}`),
      );
      return;
    }
    let start = periodEnd;
    while (addDays(start, LOCAL_PERIOD_DAYS) <= now) start = addDays(start, LOCAL_PERIOD_DAYS);
    const end = addDays(start, LOCAL_PERIOD_DAYS);
    await this.transactions.run((repos, credits) =>
      startNewPeriod(repos, credits, row, { start, end, grantKey: `local:period:${row.id}:${start.toISOString()}` }),
    );
  }
}
