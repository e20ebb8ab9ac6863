import type { UserProfile } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const getProfile = () => request<UserProfile>('GET', '/users/profile');

export const profileQueryOptions = () => queryOptions({ queryKey: queryKeys.profile, queryFn: getProfile });

/** The signed-in seller's name and email: the user menu, the profile and the checkouts read it. */
export function useProfile() {
  return useQuery(profileQueryOptions());
}
