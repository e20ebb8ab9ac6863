import type { WebhookEndpointsResponse } from '@prodshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const getWebhooks = () => request<WebhookEndpointsResponse>('GET', '/webhooks');

/** The seller's endpoints, newest first: never their secrets. */
export function useWebhooks() {
  return useQuery({ queryKey: queryKeys.webhooks, queryFn: getWebhooks });
}
