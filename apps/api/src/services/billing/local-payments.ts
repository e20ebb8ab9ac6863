import type { Config } from '@prodshot/config';
import { alreadySubscribedMessage, type Plan } from '@prodshot/contracts';
import type { SubscriptionRow } from '@prodshot/db';
import type { AuthUser } from '../auth-user.js';
import {
  activatePlan,
  addDays,
  grantAddOnPack,
  holdsPlan,
  isRunning,
  LOCAL_PERIOD_DAYS,
  localGrantKey,
} from './subscription-lifecycle.js';
import type { BillingService } from './billing-service.js';
import type { CreditTransactions } from './credit-transactions.js';
import { HttpError } from '../http-error.js';
import type { PaymentsProvider, PurchaseResult } from './payments-provider.js';

/**
 * No payment processor: every purchase is granted at once through the ledger and answers without
 * a payment link, which sends the web app down the spec's `/dashboard?subscription=success` path.
 * The configuration refuses this provider in production.
 */
export class LocalPaymentsProvider implements PaymentsProvider {
  readonly kind = 'local';

  constructor(
    private readonly config: Config,
    private readonly billing: BillingService,
    private readonly transactions: CreditTransactions,
  ) {}

  async subscribe({
    user,
    plan,
    current,
    idempotencyKey,
  }: Parameters<PaymentsProvider['subscribe']>[0]): Promise<PurchaseResult> {
    const running = isRunning(current) ? current : await this.startUnlessRunning(user, plan, idempotencyKey);
    if (running) {
      // Another tab's purchase got there first: this one is what it would have been after it.
      if (holdsPlan(running, plan.id))
        throw new HttpError(409, alreadySubscribedMessage(plan.id), 'already_subscribed');
      await this.billing.scheduleChange(running, plan.id);
    }
    return { paymentLink: null };
  }

  /**
   * One subscription per seller, as with Stripe: two purchases at once (two tabs) both found none, so
   * the seller's lock decides again and only the first starts a plan. Answers the running subscription
   * the later one found instead.
   */
  private async startUnlessRunning(
    user: AuthUser,
    plan: Plan,
    idempotencyKey: string | undefined,
  ): Promise<SubscriptionRow | undefined> {
    return this.transactions.run(async (repos, credits) => {
      await repos.advisoryLocks.lockUserSubscription(user.id);
      const current = await repos.subscriptions.findByUserId(user.id);
      if (isRunning(current)) return current;
      const start = new Date();
      await activatePlan(repos, credits, {
        userId: user.id,
        plan: plan.id,
        provider: 'local',
        periodStart: start,
        periodEnd: addDays(start, LOCAL_PERIOD_DAYS),
        grantKey: localGrantKey(`plan-${plan.id}`, user.id, idempotencyKey),
      });
      return undefined;
    });
  }

  async buyAddOn({ user, pack, idempotencyKey }: Parameters<PaymentsProvider['buyAddOn']>[0]): Promise<PurchaseResult> {
    await this.transactions.run((_repos, credits) =>
      grantAddOnPack(credits, { userId: user.id, pack, grantKey: localGrantKey(pack.id, user.id, idempotencyKey) }),
    );
    return { paymentLink: null };
  }

  async portalSession(): Promise<string> {
    // No hosted billing page exists without a processor: the profile page is where the plan is managed.
    return `${this.config.http.publicUrl}/profile`;
  }

  async cancelAtPeriodEnd(current: SubscriptionRow): Promise<void> {
    await this.billing.cancelAtPeriodEnd(current);
  }
}
