import type { CreateWebhookBody, CreatedWebhookEndpoint } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const createWebhook = (body: CreateWebhookBody) => request<CreatedWebhookEndpoint>('POST', '/webhooks', body);

/** Registers an endpoint; the answer is the only time its secret is seen, so it goes to `onCreated`, never into the cache. */
export function useCreateWebhook({ onCreated }: { onCreated: (created: CreatedWebhookEndpoint) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: (created) => {
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks });
    },
  });
}
