import type { SubscriptionResponse } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { useAuthState } from '../../auth/auth-context.js';

/** docs/product-spec.md §8: a failed credits fetch is only logged; the screens then read plan none and 0 credits. */
export async function getSubscription(): Promise<SubscriptionResponse> {
  try {
    return await request<SubscriptionResponse>('GET', '/users/subscription');
  } catch (error) {
    console.error('Failed to load credits', error);
    throw error;
  }
}

export const subscriptionQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.subscription, queryFn: getSubscription });

/** Credits load once a user is present; without a session nothing is fetched (docs/product-spec.md §4). */
export function useSubscription() {
  const { status } = useAuthState();
  return useQuery({ ...subscriptionQueryOptions(), enabled: status === 'signed-in' });
}

export function totalCredits(data: { subscriptionCredits?: number; addOnCredits?: number } | undefined): number {
  return (data?.subscriptionCredits ?? 0) + (data?.addOnCredits ?? 0);
}
