import type { PlanId, SubscriptionResponse } from '@prodshot/contracts';

/** What GET /users/subscription answers for a seller on `plan`, active this period. */
export function subscriptionOn(plan: PlanId): SubscriptionResponse {
  const paid = plan !== 'none';
  return {
    subscription: {
      plan,
      status: paid ? 'active' : 'none',
      startDate: paid ? '2026-11-01T00:00:00.000Z' : null,
      endDate: paid ? '2026-12-01T00:00:00.000Z' : null,
      pendingPlan: null,
      cancelAtPeriodEnd: false,
    },
    subscriptionCredits: 0,
    addOnCredits: 10,
    currentPlan: plan,
    isActive: paid,
    effectivePlan: plan,
  };
}
