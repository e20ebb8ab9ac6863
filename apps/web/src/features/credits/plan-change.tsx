import {
  planLabel,
  type CancelledSecondSubscription,
  type PaidPlanId,
  type SubscriptionInfo,
} from '@prodshot/contracts';
import { formatDate } from '../../lib/format.js';

/**
 * What happens to the subscription at the end of the paid period: another plan takes over
 * (FAQ: plan changes are next cycle), or a cancelled one ends. `on` is that date (ISO 8601).
 */
export type PlanChange = { kind: 'switch'; to: PaidPlanId; on: string } | { kind: 'ends'; on: string };

export function pendingChange(subscription: SubscriptionInfo | undefined): PlanChange | null {
  if (!subscription?.endDate || subscription.plan === 'none') return null;
  const { pendingPlan, endDate: on } = subscription;
  if (subscription.cancelAtPeriodEnd || pendingPlan === 'none') return { kind: 'ends', on };
  if (pendingPlan && pendingPlan !== subscription.plan) return { kind: 'switch', to: pendingPlan, on };
  return null;
}

export function describeChange(change: PlanChange): string {
  return change.kind === 'switch'
    ? `Changes to ${planLabel(change.to)} on ${formatDate(change.on)}`
    : `Ends on ${formatDate(change.on)}`;
}

/** The pending change in a line, wherever the plan is named; nothing when the plan simply renews. */
export function PlanChangeNote({ subscription }: { subscription: SubscriptionInfo | undefined }) {
  const change = pendingChange(subscription);
  if (!change) return null;
  return (
    <p className="plan-change" data-testid="plan-change">
      {describeChange(change)}
    </p>
  );
}

/** Two checkouts both went through: the seller's bank shows a second charge, so the profile says it was cancelled and refunded. */
export function describeCancelledSecond(second: CancelledSecondSubscription): string {
  const refund = second.refunded ? ' and its payment refunded' : '; it had not been charged';
  return `A second ${planLabel(second.plan)} subscription was started on ${formatDate(second.cancelledAt)}. It was cancelled at once${refund}. You keep your current plan.`;
}

export function CancelledSecondNote({ second }: { second: CancelledSecondSubscription | null | undefined }) {
  if (!second) return null;
  return (
    <p className="notice" data-testid="cancelled-second-subscription">
      {describeCancelledSecond(second)}
    </p>
  );
}
