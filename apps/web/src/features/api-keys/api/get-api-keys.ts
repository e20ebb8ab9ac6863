import type { ApiKeysResponse } from '@prodshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const getApiKeys = () => request<ApiKeysResponse>('GET', '/keys');

/** The seller's keys in force, newest first: never the keys themselves. */
export function useApiKeys() {
  return useQuery({ queryKey: queryKeys.apiKeys, queryFn: getApiKeys });
}
