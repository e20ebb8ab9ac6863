import type { WebhookDeliveryResponse } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const sendAgain = (endpointId: string, deliveryId: string) =>
  request<WebhookDeliveryResponse>(
    'POST',
    `/webhooks/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
  );

/** "Send again": the delivery goes back in line; the list is read again. */
export function useSendAgain(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => sendAgain(endpointId, deliveryId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.webhookDeliveries(endpointId) }),
  });
}
