import { planAllows, type PlanFeature } from '@prodshot/contracts';
import { useSubscription } from './api/get-subscription.js';

/**
 * Whether the seller's plan in effect includes a feature: undefined until the subscription has
 * loaded (or if it cannot be read), when the screen lets the seller try and the server decides.
 */
export function usePlanFeature(feature: PlanFeature): boolean | undefined {
  const subscription = useSubscription();
  const plan = subscription.data?.effectivePlan;
  return plan === undefined ? undefined : planAllows(plan, feature);
}
