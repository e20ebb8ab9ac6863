import type { RetryStyleResponse, ShotRef } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keyed, request } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** Renders a failed style of a smart run again, in place. */
export const retryStyle = ({ generationId, index }: ShotRef, idempotencyKey: string) =>
  request<RetryStyleResponse>(
    'POST',
    `/generations/${encodeURIComponent(generationId)}/styles/${index}/retry`,
    undefined,
    { headers: keyed(idempotencyKey) },
  );

/** Retries the style with the key of the click; the run and the balance are read again once it is queued. */
export function useRetryStyle(shot: ShotRef, onStarted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey: string) => retryStyle(shot, idempotencyKey),
    retry: retryTransient,
    onSuccess: () => {
      onStarted();
      void queryClient.invalidateQueries({ queryKey: queryKeys.generation(shot.generationId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    },
  });
}
