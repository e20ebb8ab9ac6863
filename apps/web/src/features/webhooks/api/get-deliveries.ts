import type { WebhookDeliveriesResponse } from '@prodshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** Deliveries change on their own (attempts, retries): read again this often while the list is open. */
const DELIVERIES_REFRESH_MS = 5_000;

export const getDeliveries = (endpointId: string) =>
  request<WebhookDeliveriesResponse>('GET', `/webhooks/${encodeURIComponent(endpointId)}/deliveries`);

/** An endpoint's latest deliveries, newest first. */
export function useDeliveries(endpointId: string) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(endpointId),
    queryFn: () => getDeliveries(endpointId),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
}
