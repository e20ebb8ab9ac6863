import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';
import { useAuthState } from '../auth/auth-context.js';

/** Credits load once a user is present; without a session nothing is fetched (spec §4). */
export function useSubscription() {
  const { status } = useAuthState();
  return useQuery({ queryKey: queryKeys.subscription, queryFn: api.subscription, enabled: status === 'signed-in' });
}

export function totalCredits(data: { subscriptionCredits?: number; addOnCredits?: number } | undefined): number {
  return (data?.subscriptionCredits ?? 0) + (data?.addOnCredits ?? 0);
}
