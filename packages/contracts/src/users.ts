import type { CreditBalance } from './credits.js';
import type { PlanId } from './plans.js';

/** `GET/PATCH /api/users/profile`. Email is read-only: it comes from the authentication provider. */
export interface UserProfile {
  id: string;
  name: string;
  email: string;
}

export interface UpdateProfileRequest {
  name: string;
}

export const NAME_REQUIRED_MESSAGE = 'Name is required';

/** 'active' while paid; 'canceled' once cancelled (credits stay until the period ends); Stripe's other states pass through. */
export type SubscriptionStatus = 'none' | 'active' | 'canceled' | 'past_due' | 'unpaid' | 'incomplete' | 'incomplete_expired' | 'trialing' | 'paused';

export interface SubscriptionInfo {
  plan: PlanId;
  status: SubscriptionStatus;
  /** ISO 8601; null without a subscription. */
  startDate: string | null;
  endDate: string | null;
  /** Plan taking effect at the start of the next billing cycle (FAQ: plan changes are next cycle). */
  pendingPlan: PlanId | null;
  cancelAtPeriodEnd: boolean;
}

/** `GET /api/users/subscription`; currentPlan and isActive are the spec's "simple form". */
export interface SubscriptionResponse extends CreditBalance {
  subscription: SubscriptionInfo;
  currentPlan: PlanId;
  isActive: boolean;
  /** The plan whose quality and features apply now: a cancelled plan's until its paid period ends, then none. */
  effectivePlan: PlanId;
}
