import { SubscriptionsRepository, type SubscriptionRow } from '@prodshot/db';
import type { AppDeps } from '../deps.js';
import { activatePlan, addDays, grantAddOnPack, isRunning, LOCAL_PERIOD_DAYS, localGrantKey, scheduleChange } from './billing.js';
import { runCreditTransaction } from './credit-transactions.js';
import type { PaymentsProvider, PurchaseResult } from './payments-provider.js';

/**
 * No payment processor: every purchase is granted at once through the ledger and answers without
 * a payment link, which sends the web app down the spec's `/dashboard?subscription=success` path.
 * The configuration refuses this provider in production.
 */
export class LocalPaymentsProvider implements PaymentsProvider {
  readonly kind = 'local';

  constructor(private readonly deps: AppDeps) {}

  async subscribe({ user, plan, current, idempotencyKey }: Parameters<PaymentsProvider['subscribe']>[0]): Promise<PurchaseResult> {
    if (isRunning(current)) {
      await scheduleChange(this.deps, current, plan.id);
      return { paymentLink: null };
    }
    const start = new Date();
    await runCreditTransaction(this.deps, (tx, credits) =>
      activatePlan(tx, credits, {
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
    await runCreditTransaction(this.deps, (_tx, credits) =>
      grantAddOnPack(credits, { userId: user.id, pack, grantKey: localGrantKey(pack.id, user.id, idempotencyKey) }),
    );
    return { paymentLink: null };
  }

  async portalSession(): Promise<string> {
    // No hosted billing page exists without a processor: the profile page is where the plan is managed.
    return `${this.deps.config.http.publicUrl}/profile`;
  }

  async cancelAtPeriodEnd(current: SubscriptionRow): Promise<void> {
    await new SubscriptionsRepository(this.deps.db).update(current.id, { status: 'canceled', cancelAtPeriodEnd: true });
  }
}
