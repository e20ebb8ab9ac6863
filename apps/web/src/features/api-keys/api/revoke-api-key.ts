import type { RevokedApiKeyResponse } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const revokeApiKey = (id: string) => request<RevokedApiKeyResponse>('DELETE', `/keys/${encodeURIComponent(id)}`);

/** Revokes a key; the list is read again once it is gone. */
export function useRevokeApiKey({ onSettled }: { onSettled: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSettled: () => {
      onSettled();
      void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
}
