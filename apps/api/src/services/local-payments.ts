import type { Config } from '@prodshot/config';
import type { SubscriptionRow } from '@prodshot/db';
import { activatePlan, addDays, grantAddOnPack, isRunning, LOCAL_PERIOD_DAYS, localGrantKey } from './billing.js';
import type { BillingService } from './billing-service.js';
import type { CreditTransactions } from './credit-transactions.js';
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

  async subscribe({ user, plan, current, idempotencyKey }: Parameters<PaymentsProvider['subscribe']>[0]): Promise<PurchaseResult> {
    if (isRunning(current)) {
      await this.billing.scheduleChange(current, plan.id);
      return { paymentLink: null };
    }
    const start = new Date();
    await this.transactions.run((repos, credits) =>
      activatePlan(repos, credits, {
        userId: user.id,
        plan: plan.id,
        provider: 'local',
        periodStart: start,
        periodEnd: addDays(start, LOCAL_PERIOD_DAYS),
        grantKey: localGrantKey(`plan-${plan.id}`, user.id, idempotencyKey),
      }),
    );
    return { paymentLink: null };
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
