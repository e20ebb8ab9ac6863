import type { CreateApiKeyBody, CreatedApiKey } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const createApiKey = (body: CreateApiKeyBody) => request<CreatedApiKey>('POST', '/keys', body);

/** Makes a key; the answer is the only time its secret is seen, so it goes to `onCreated`, never into the cache. */
export function useCreateApiKey({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: (created) => {
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
}
