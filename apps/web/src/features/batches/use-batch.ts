import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../lib/api-client.js';
import { retryTransient } from '../../lib/idempotency.js';

export const batchKey = (id: string) => ['batch', id] as const;

/**
 * A batch as the API has it: read on arrival (so `/batches/:id` resumes after a reload), and
 * again whenever one of its photos settles; the live progress in between comes from the socket,
 * through each generation's own cache entry (useGeneration).
 */
export function useBatch(id: string) {
  const query = useQuery({ queryKey: batchKey(id), queryFn: () => api.batch(id), retry: retryTransient, staleTime: Infinity });
  return {
    batch: query.data?.data,
    notFound: query.error instanceof ApiError && query.error.status === 404,
    error: query.error,
    refetch: query.refetch,
  };
}

/** Seconds since the epoch at which a signed archive link stops working. */
export function linkExpiry(url: string): number {
  return Number(new URL(url, 'http://link.invalid').searchParams.get('expires') ?? 0);
}
