import { Type, type Static } from 'typebox';
import { CreditBalance } from './credits.js';
import { PlanId } from './plans.js';

/** `GET/PATCH /api/users/profile`. Email is read-only: it comes from the authentication provider. */
export const UserProfile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
});
export type UserProfile = Static<typeof UserProfile>;

/**
 * `PATCH /api/users/profile`. The name is optional here so that a missing or blank one is refused
 * with NAME_REQUIRED_MESSAGE, worded for the seller, rather than by validation.
 */
export const UpdateProfileRequest = Type.Partial(Type.Object({ name: Type.String() }));
export type UpdateProfileRequest = Static<typeof UpdateProfileRequest>;

export const NAME_REQUIRED_MESSAGE = 'Name is required';
/** Longest name a profile holds, whether given at sign-up or edited. */
export const NAME_MAX_LENGTH = 200;

/** 'active' while paid; 'canceled' once cancelled (credits stay until the period ends); Stripe's other states pass through. */
export const SubscriptionStatus = Type.Union([
  Type.Literal('none'),
  Type.Literal('active'),
  Type.Literal('canceled'),
  Type.Literal('past_due'),
  Type.Literal('unpaid'),
  Type.Literal('incomplete'),
  Type.Literal('incomplete_expired'),
  Type.Literal('trialing'),
  Type.Literal('paused'),
]);
export type SubscriptionStatus = Static<typeof SubscriptionStatus>;

export const SubscriptionInfo = Type.Object({
  plan: PlanId,
  status: SubscriptionStatus,
  /** ISO 8601; null without a subscription. */
  startDate: Type.Union([Type.String(), Type.Null()]),
  endDate: Type.Union([Type.String(), Type.Null()]),
  /** Plan taking effect at the start of the next billing cycle (FAQ: plan changes are next cycle). */
  pendingPlan: Type.Union([PlanId, Type.Null()]),
  cancelAtPeriodEnd: Type.Boolean(),
});
export type SubscriptionInfo = Static<typeof SubscriptionInfo>;

/**
 * A second subscription the payment provider started (two checkouts raced) and that was cancelled at
 * once, its payment refunded; the profile tells the seller so, since their bank shows both.
 */
export const CancelledSecondSubscription = Type.Object({
  plan: PlanId,
  /** ISO 8601. */
  cancelledAt: Type.String(),
  /** false while its payment had not been taken: nothing to refund. */
  refunded: Type.Boolean(),
});
export type CancelledSecondSubscription = Static<typeof CancelledSecondSubscription>;

/** `GET /api/users/subscription`; currentPlan and isActive are the spec's "simple form". */
export const SubscriptionResponse = Type.Object({
  ...CreditBalance.properties,
  /** The latest second subscription cancelled for this seller; null (or absent, from an older API) if none. */
  cancelledSecondSubscription: Type.Optional(Type.Union([CancelledSecondSubscription, Type.Null()])),
  subscription: SubscriptionInfo,
  currentPlan: PlanId,
  isActive: Type.Boolean(),
  /** The plan whose quality and features apply now: a cancelled plan's until its paid period ends, then none. */
  effectivePlan: PlanId,
});
export type SubscriptionResponse = Static<typeof SubscriptionResponse>;
