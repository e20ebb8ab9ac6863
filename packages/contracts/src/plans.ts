/** Subscription plans of spec §9 and the add-on packs of decisions.md, defined once for web, api and worker. */
export type PlanId = 'none' | 'starter' | 'growth' | 'pro';
export type PaidPlanId = Exclude<PlanId, 'none'>;

export interface Plan {
  id: PaidPlanId;
  /** Capitalised name, as in 'You already have an active subscription to the Growth plan.' */
  name: string;
  label: string;
  priceCents: number;
  /** Images per month: the subscription credits granted at each paid period. */
  monthlyCredits: number;
  badge: string | null;
  interval: 'month';
  /** Days of history (generations and uploads) the plan keeps; null keeps all of it (decisions.md). */
  historyDays: number | null;
}

export const PLANS: readonly Plan[] = [
  { id: 'starter', name: 'Starter', label: 'Starter Plan', priceCents: 1499, monthlyCredits: 250, badge: null, interval: 'month', historyDays: 30 },
  { id: 'growth', name: 'Growth', label: 'Growth Plan', priceCents: 4999, monthlyCredits: 800, badge: 'Popular', interval: 'month', historyDays: null },
  { id: 'pro', name: 'Pro', label: 'Pro Plan', priceCents: 9999, monthlyCredits: 1700, badge: null, interval: 'month', historyDays: null },
];

export const ADDON_PRICE_PER_IMAGE_CENTS = 6;

export type AddOnPackId = 'addon-100' | 'addon-500' | 'addon-1000';

export interface AddOnPack {
  id: AddOnPackId;
  name: string;
  credits: number;
  priceCents: number;
}

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

export function findAddOnPack(id: string): AddOnPack | undefined {
  return ADDON_PACKS.find((pack) => pack.id === id);
}

/** Monthly allowance of a plan; 0 for no plan. */
export function planAllowance(plan: PlanId): number {
  return PLANS.find((p) => p.id === plan)?.monthlyCredits ?? 0;
}

/** Days of history a plan keeps, null for all of it; no plan keeps what the lowest tier keeps. */
export function historyDays(plan: PlanId): number | null {
  return (findPlan(plan) ?? findPlan('starter')!).historyDays;
}

/** The header and credit panel labels of spec §2: anything not none, starter or growth reads 'Pro Plan'. */
export function planLabel(plan: PlanId | null | undefined): string {
  if (!plan || plan === 'none') return 'No Subscription';
  if (plan === 'starter') return 'Starter Plan';
  if (plan === 'growth') return 'Growth Plan';
  return 'Pro Plan';
}

/** Spec §9: (allowance − subscription credits) / allowance, rounded, clamped to 0–100; 0 without a plan. */
export function usagePercent(plan: PlanId, subscriptionCredits: number): number {
  const allowance = planAllowance(plan);
  if (allowance <= 0) return 0;
  const percent = Math.round(((allowance - subscriptionCredits) / allowance) * 100);
  return Math.min(100, Math.max(0, percent));
}

/** Spec §5: the message that refuses buying the plan the user already has. */
export function alreadySubscribedMessage(plan: PaidPlanId): string {
  return `You already have an active subscription to the ${findPlan(plan)?.name ?? plan} plan.`;
}
