import { PLAN_FEATURE_NAMES, type Plan, type PlanFeature } from '@prodshot/contracts';

export interface PlanLine {
  text: string;
  /** false: a feature this plan lacks, shown so sellers can compare. */
  included: boolean;
}

/**
 * Open to every plan with credits: the server gates none. Smart generation is the dashboard's
 * first path (docs/product-spec.md §4), so every plan has it; its shots come at the plan's quality.
 */
const EVERY_PLAN = ['Smart generation', 'All nine templates', 'Custom background prompts'];

/**
 * A pricing card's lines, written from the plan's own fields: the server enforces the same fields,
 * so a card cannot claim what the product does not do.
 */
export function planLines(plan: Plan): PlanLine[] {
  const features = (Object.keys(PLAN_FEATURE_NAMES) as PlanFeature[]).map((feature) => ({
    text: PLAN_FEATURE_NAMES[feature],
    included: plan.features[feature],
  }));
  return [
    { text: `${plan.monthlyCredits} images a month`, included: true },
    { text: `${plan.quality.name} quality (${plan.quality.size} px)`, included: true },
    ...EVERY_PLAN.map((text) => ({ text, included: true })),
    ...features,
    { text: plan.historyDays === null ? 'Unlimited history' : `${plan.historyDays}-day history`, included: true },
  ];
}
