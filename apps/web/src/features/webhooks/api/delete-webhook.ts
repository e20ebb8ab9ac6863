import type { DeletedWebhookEndpointResponse } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const deleteWebhook = (id: string) =>
  request<DeletedWebhookEndpointResponse>('DELETE', `/webhooks/${encodeURIComponent(id)}`);

/** Deletes an endpoint; the list is read again once it is gone. */
export function useDeleteWebhook({ onSettled }: { onSettled: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSettled: () => {
      onSettled();
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks });
    },
  });
}
