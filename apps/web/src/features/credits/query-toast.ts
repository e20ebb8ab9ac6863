import { findPlan, type PlanId, type SubscriptionInfo } from '@prodshot/contracts';
import { formatDate } from '../../lib/format.js';
import { pendingChange } from './plan-change.js';

export interface ToastMessage {
  type: 'success' | 'error';
  title: string;
  description: string;
  details?: string;
}

/** docs/product-spec.md §2 and §9: the toast shows for this long, then the query is cleared. */
export const TOAST_DURATION_MS = 10_000;

/** The query parameters that drive the dashboard toast (and are cleared with it). */
export const TOAST_PARAMS = [
  'subscription_status',
  'status',
  'plan',
  'subscription_id',
  'subscription',
  'addon',
  'addon_status',
] as const;

function planText(plan: string | null): string | null {
  if (!plan) return null;
  const found = findPlan(plan as PlanId);
  return found ? found.label : null;
}

/** True for the query strings a subscription purchase returns with: their toast depends on the subscription. */
export function isSubscriptionReturn(params: URLSearchParams): boolean {
  return (
    params.get('subscription_status') === 'success' ||
    params.get('status') === 'active' ||
    params.get('subscription') === 'success'
  );
}

/**
 * The dashboard toast for a query string, or null when none of its parameters is present. After a
 * purchase, `subscription` (as it stands now) says whether the plan changed at once or is scheduled.
 */
export function toastFromQuery(params: URLSearchParams, subscription?: SubscriptionInfo): ToastMessage | null {
  const plan = params.get('plan');
  const id = params.get('subscription_id');
  const status = params.get('status');
  const subscriptionStatus = params.get('subscription_status');

  if (params.get('addon') === 'success' || params.get('addon_status') === 'success') {
    return {
      type: 'success',
      title: 'Credits Added!',
      description: 'Your additional credits have been added to your account.',
    };
  }
  if (subscriptionStatus === 'failed' || status === 'failed') {
    const label = planText(plan);
    return {
      type: 'error',
      title: 'Subscription Failed',
      description: `There was a problem processing your subscription to the ${label ?? 'selected plan'}.`,
      details: id ? `Subscription ID: ${id}` : 'Please try again or contact support if the issue persists.',
    };
  }
  if (isSubscriptionReturn(params)) {
    const label = planText(plan);
    const change = pendingChange(subscription);
    // A change of plan waits for the next billing cycle: nothing is upgraded yet.
    const description =
      change?.kind === 'switch'
        ? `Your plan changes to ${findPlan(change.to)!.name} on ${formatDate(change.on)}.`
        : label
          ? `Your account has been upgraded to the ${label}.`
          : 'Your account has been upgraded successfully.';
    return {
      type: 'success',
      title: 'Subscription Successful!',
      description,
      ...(id ? { details: `Subscription ID: ${id} • Status: ${status ?? 'active'}` } : {}),
    };
  }
  return null;
}
