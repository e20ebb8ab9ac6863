import type { ClientConfigResponse } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** How this deployment signs sellers in (Clerk or the embedded sign-in): asked before anyone is signed in. */
export const getClientConfig = () => request<ClientConfigResponse>('GET', '/client-config', undefined, { token: null });

export const clientConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.clientConfig, queryFn: getClientConfig, staleTime: Infinity, retry: 3 });

export function useClientConfig() {
  return useQuery(clientConfigQueryOptions());
}
