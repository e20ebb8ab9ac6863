import type { GenerationDto, GenerationResponse } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { isFinished } from '../smart-status.js';

export const getGeneration = (id: string) =>
  request<GenerationResponse>('GET', `/generations/${encodeURIComponent(id)}`);

export const generationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.generation(id),
    queryFn: () => getGeneration(id),
    staleTime: Infinity,
    retry: retryTransient,
  });

/**
 * Where a generation stands: read once from the API, then kept current by socket events in the
 * cache (and read again on 'generation:done' and whenever the socket connects).
 */
export function useGeneration(id: string | null) {
  const query = useQuery({ ...generationQueryOptions(id ?? ''), enabled: id !== null });
  const generation: GenerationDto | undefined = query.data?.data;
  return {
    generation,
    /** Finished with the server's final row, not only the events that announced it. */
    settled: isFinished(generation) && !query.isFetching,
    notFound: query.error instanceof ApiError && query.error.status === 404,
    error: query.error,
    refetch: query.refetch,
  };
}
