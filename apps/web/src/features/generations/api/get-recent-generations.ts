import type { GenerationListResponse } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { usePagedList } from '../../../hooks/use-paged-list.js';
import { pageQuery, request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const getRecentGenerations = (limit: number, cursor: string | null = null) =>
  request<GenerationListResponse>('GET', `/images/recent/generations?${pageQuery(limit, cursor)}`);

export const recentGenerationsQueryOptions = (limit: number) =>
  queryOptions({ queryKey: queryKeys.recentGenerations(limit), queryFn: () => getRecentGenerations(limit) });

/** The newest `limit` finished shots; a finished generation refreshes every such list. */
export function useRecentGenerations(limit: number) {
  return useQuery(recentGenerationsQueryOptions(limit));
}

/** /all-generations: every shot, a cursor page at a time. */
export function useGenerationPages() {
  return usePagedList(queryKeys.generationPages, getRecentGenerations);
}
