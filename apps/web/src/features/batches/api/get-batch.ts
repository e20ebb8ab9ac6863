import type { BatchResponse } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const getBatch = (id: string) => request<BatchResponse>('GET', `/batches/${encodeURIComponent(id)}`);

export const batchQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.batch(id),
    queryFn: () => getBatch(id),
    retry: retryTransient,
    staleTime: Infinity,
  });

/**
 * A batch as the API has it: read on arrival (so `/batches/:id` resumes after a reload), and
 * again whenever one of its photos settles; the live progress in between comes from the socket,
 * through each generation's own cache entry (useGeneration).
 */
export function useBatch(id: string) {
  const query = useQuery(batchQueryOptions(id));
  return {
    batch: query.data?.data,
    notFound: query.error instanceof ApiError && query.error.status === 404,
    error: query.error,
    refetch: query.refetch,
  };
}
