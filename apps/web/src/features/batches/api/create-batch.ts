import type { CreateBatchRequest, CreateBatchResponse } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, keyed, request } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const createBatch = (body: CreateBatchRequest, idempotencyKey: string) =>
  request<CreateBatchResponse>('POST', '/batches', body, { headers: keyed(idempotencyKey) });

/** Starts the batch, reserving its credits; a 402 means the balance moved meanwhile, so it is read again. */
export function useCreateBatch({
  onSuccess,
  onError,
}: {
  onSuccess: (response: CreateBatchResponse) => void;
  onError: () => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreateBatchRequest; idempotencyKey: string }) =>
      createBatch(body, idempotencyKey),
    retry: retryTransient,
    onSuccess,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 402)
        void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
      onError();
    },
  });
}
