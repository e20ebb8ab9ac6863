import { Type, type Static } from 'typebox';
import { ApiErrorBody } from './errors.js';
import type { ShotSize } from './jobs.js';

/**
 * Subscription plans of docs/product-spec.md §9 and the add-on packs of docs/decisions.md, defined once for web, api and
 * worker: the pricing cards are written from these fields and the server enforces the same ones.
 */
export const PaidPlanId = Type.Union([Type.Literal('starter'), Type.Literal('growth'), Type.Literal('pro')]);
export type PaidPlanId = Static<typeof PaidPlanId>;
export const PlanId = Type.Union([Type.Literal('none'), ...PaidPlanId.anyOf]);
export type PlanId = Static<typeof PlanId>;

/** What a plan unlocks beyond its images, quality and history. */
export const PlanFeatures = Type.Object({ promptEnhancement: Type.Boolean(), priorityProcessing: Type.Boolean() });
export type PlanFeatures = Static<typeof PlanFeatures>;
export type PlanFeature = keyof PlanFeatures;

/** Each feature's name as the pricing cards and the refusals print it, in card order. */
export const PLAN_FEATURE_NAMES: Readonly<Record<PlanFeature, string>> = {
  promptEnhancement: 'Prompt enhancement',
  priorityProcessing: 'Priority processing',
};

export const PlanQuality = Type.Object({
  name: Type.Union([Type.Literal('HD'), Type.Literal('Ultra HD')]),
  size: Type.Unsafe<ShotSize>(Type.Integer({ description: 'Long side of every shot, in pixels' })),
});
export type PlanQuality = Static<typeof PlanQuality>;

export const Plan = Type.Object({
  id: PaidPlanId,
  /** Capitalised name, as in 'You already have an active subscription to the Growth plan.' */
  name: Type.String(),
  label: Type.String(),
  priceCents: Type.Integer(),
  /** Images per month: the subscription credits granted at each paid period. */
  monthlyCredits: Type.Integer(),
  badge: Type.Union([Type.String(), Type.Null()]),
  interval: Type.Literal('month'),
  quality: PlanQuality,
  features: PlanFeatures,
  /** Days of history (generations and uploads) the plan keeps; null keeps all of it (docs/decisions.md). */
  historyDays: Type.Union([Type.Integer(), Type.Null()]),
});
export type Plan = Static<typeof Plan>;

const HD: PlanQuality = { name: 'HD', size: 2048 };
const ULTRA_HD: PlanQuality = { name: 'Ultra HD', size: 4096 };

export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    label: 'Starter Plan',
    priceCents: 1499,
    monthlyCredits: 250,
    badge: null,
    interval: 'month',
    quality: HD,
    features: { promptEnhancement: false, priorityProcessing: false },
    historyDays: 30,
  },
  {
    id: 'growth',
    name: 'Growth',
    label: 'Growth Plan',
    priceCents: 4999,
    monthlyCredits: 800,
    badge: 'Popular',
    interval: 'month',
    quality: ULTRA_HD,
    features: { promptEnhancement: true, priorityProcessing: false },
    historyDays: null,
  },
  {
    id: 'pro',
    name: 'Pro',
    label: 'Pro Plan',
    priceCents: 9999,
    monthlyCredits: 1700,
    badge: null,
    interval: 'month',
    quality: ULTRA_HD,
    features: { promptEnhancement: true, priorityProcessing: true },
    historyDays: null,
  },
];

/** Shots without a plan (docs/decisions.md): below every plan's quality. */
const NO_PLAN_SHOT_SIZE: ShotSize = 1024;

export const ADDON_PRICE_PER_IMAGE_CENTS = 6;

export const AddOnPackId = Type.Union([
  Type.Literal('addon-100'),
  Type.Literal('addon-500'),
  Type.Literal('addon-1000'),
]);
export type AddOnPackId = Static<typeof AddOnPackId>;

export const AddOnPack = Type.Object({
  id: AddOnPackId,
  name: Type.String(),
  credits: Type.Integer(),
  priceCents: Type.Integer(),
});
export type AddOnPack = Static<typeof AddOnPack>;

export const ADDON_PACKS: readonly AddOnPack[] = [100, 500, 1000].map((credits) => ({
  id: `addon-${credits}` as AddOnPackId,
  name: `${credits} additional images`,
  credits,
  priceCents: credits * ADDON_PRICE_PER_IMAGE_CENTS,
}));

export function isPaidPlanId(value: unknown): value is PaidPlanId {
  return PLANS.some((plan) => plan.id === value);
}

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

export function findAddOnPack(id: string | null | undefined): AddOnPack | undefined {
  return ADDON_PACKS.find((pack) => pack.id === id);
}

/** Whether a plan includes a feature; no plan includes none. */
export function planAllows(plan: PlanId, feature: PlanFeature): boolean {
  return findPlan(plan)?.features[feature] ?? false;
}

/** Output side of a plan's shots. */
export function shotSizeFor(plan: PlanId): ShotSize {
  return findPlan(plan)?.quality.size ?? NO_PLAN_SHOT_SIZE;
}

/** Where a refusal sends the seller to upgrade. */
export const UPGRADE_URL = '/pricing';
export const PLAN_REQUIRED_CODE = 'plan_required';

/** 403 for a call the seller's plan does not include: what to upgrade to, and where. */
export const PlanRequiredErrorBody = Type.Object({
  ...ApiErrorBody.properties,
  statusCode: Type.Literal(403),
  code: Type.Literal(PLAN_REQUIRED_CODE),
  feature: Type.KeyOf(PlanFeatures),
  upgradeUrl: Type.Literal(UPGRADE_URL),
});
export type PlanRequiredErrorBody = Static<typeof PlanRequiredErrorBody>;
/** 403 of a plan feature's route: the plan refusal's fields, absent when it is an API key without the scope the call needs. */
export const PlanFeatureForbiddenBody = Type.Object({
  ...ApiErrorBody.properties,
  feature: Type.Optional(PlanRequiredErrorBody.properties.feature),
  upgradeUrl: Type.Optional(PlanRequiredErrorBody.properties.upgradeUrl),
});

/** 'Prompt enhancement is part of the Growth and Pro plans.', from the plans that include it. */
export function planRequiredMessage(feature: PlanFeature): string {
  const names = PLANS.filter((plan) => plan.features[feature]).map((plan) => plan.name);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return `${PLAN_FEATURE_NAMES[feature]} is part of the ${list} plan${names.length > 1 ? 's' : ''}.`;
}

/** Monthly allowance of a plan; 0 for no plan. */
export function planAllowance(plan: PlanId): number {
  return PLANS.find((p) => p.id === plan)?.monthlyCredits ?? 0;
}

/** Days of history a plan keeps, null for all of it; no plan keeps what the lowest tier keeps. */
export function historyDays(plan: PlanId): number | null {
  return (findPlan(plan) ?? findPlan('starter')!).historyDays;
}

/** The header and credit panel labels of docs/product-spec.md §2: anything not none, starter or growth reads 'Pro Plan'. */
export function planLabel(plan: PlanId | null | undefined): string {
  if (!plan || plan === 'none') return 'No Subscription';
  if (plan === 'starter') return 'Starter Plan';
  if (plan === 'growth') return 'Growth Plan';
  return 'Pro Plan';
}

/** docs/product-spec.md §9: (allowance − subscription credits) / allowance, rounded, clamped to 0–100; 0 without a plan. */
export function usagePercent(plan: PlanId, subscriptionCredits: number): number {
  const allowance = planAllowance(plan);
  if (allowance <= 0) return 0;
  const percent = Math.round(((allowance - subscriptionCredits) / allowance) * 100);
  return Math.min(100, Math.max(0, percent));
}

/** docs/product-spec.md §5: the message that refuses buying the plan the user already has. */
export function alreadySubscribedMessage(plan: PaidPlanId): string {
  return `You already have an active subscription to the ${findPlan(plan)?.name ?? plan} plan.`;
}

/** A second subscription checkout while one is open would charge the seller twice (docs/decisions.md, Money). */
export function checkoutOpenMessage(minutesLeft: number): string {
  const minutes = Math.max(1, Math.ceil(minutesLeft));
  return `You already have a subscription checkout open. Finish paying there, or start again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The first payment of a subscription is on its way (a delayed payment method): a second one would charge twice. */
export function subscriptionPaymentPendingMessage(plan: PaidPlanId): string {
  return `Your payment for the ${findPlan(plan)?.name ?? plan} plan is still being processed. You can choose a plan again once it goes through or fails.`;
}
