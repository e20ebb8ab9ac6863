import { findPlan, type PlanId } from '@prodshot/contracts';

export interface ToastMessage {
  type: 'success' | 'error';
  title: string;
  description: string;
  details?: string;
}

/** Spec §2 and §9: the toast shows for this long, then the query is cleared. */
export const TOAST_DURATION_MS = 10_000;

/** The query parameters that drive the dashboard toast (and are cleared with it). */
export const TOAST_PARAMS = ['subscription_status', 'status', 'plan', 'subscription_id', 'subscription', 'addon', 'addon_status'] as const;

function planText(plan: string | null): string | null {
  if (!plan) return null;
  const found = findPlan(plan as PlanId);
  return found ? found.label : null;
}

/** The dashboard toast for a query string, or null when none of its parameters is present. */
export function toastFromQuery(params: URLSearchParams): ToastMessage | null {
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
  if (subscriptionStatus === 'success' || status === 'active' || params.get('subscription') === 'success') {
    const label = planText(plan);
    return {
      type: 'success',
      title: 'Subscription Successful!',
      description: label ? `Your account has been upgraded to the ${label}.` : 'Your account has been upgraded successfully.',
      ...(id ? { details: `Subscription ID: ${id} • Status: ${status ?? 'active'}` } : {}),
    };
  }
  return null;
}
