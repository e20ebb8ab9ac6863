import type { GenerationDto } from '@prodshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../lib/api-client.js';
import { retryTransient } from '../../lib/idempotency.js';
import { queryKeys } from '../../lib/query-keys.js';
import { isFinished } from './smart-status.js';

/**
 * Where a generation stands: read once from the API, then kept current by socket events in the
 * cache (and read again on 'generation:done' and whenever the socket connects).
 */
export function useGeneration(id: string | null) {
  const query = useQuery({
    queryKey: queryKeys.generation(id ?? ''),
    queryFn: () => api.generation(id!),
    enabled: id !== null,
    staleTime: Infinity,
    retry: retryTransient,
  });
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
