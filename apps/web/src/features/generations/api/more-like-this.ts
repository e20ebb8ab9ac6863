import type { MoreLikeThisResponse, ShotRef } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keyed, request } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** New shots in the style of one output, as a generation of their own. */
export const moreLikeThis = ({ generationId, index }: ShotRef, idempotencyKey: string) =>
  request<MoreLikeThisResponse>(
    'POST',
    `/generations/${encodeURIComponent(generationId)}/outputs/${index}/more-like-this`,
    undefined,
    { headers: keyed(idempotencyKey) },
  );

/** Another take of `shot`, sent with the key of the click; the credit it reserves is shown at once. */
export function useMoreLikeThis(shot: ShotRef, onStarted: (generationId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey: string) => moreLikeThis(shot, idempotencyKey),
    retry: retryTransient,
    onSuccess: ({ data }) => {
      onStarted(data.generationId);
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    },
  });
}
