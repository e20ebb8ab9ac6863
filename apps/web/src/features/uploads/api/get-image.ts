import type { ImageResponse } from '@prodshot/contracts';
import { queryOptions, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const getImage = (id: string) => request<ImageResponse>('GET', `/images/${encodeURIComponent(id)}`);

export const imageQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.image(id), queryFn: () => getImage(id) });

type ImageQueryExtras = Omit<
  UseQueryOptions<ImageResponse, Error, ImageResponse, ReturnType<typeof queryKeys.image>>,
  'queryKey' | 'queryFn' | 'enabled'
>;

/** One upload, its links signed afresh by the API; null id: not wanted yet. */
export function useImage(id: string | null, extras: ImageQueryExtras = {}) {
  return useQuery({ ...imageQueryOptions(id ?? ''), enabled: id !== null, ...extras });
}

/** The upload as the cache holds it now, without asking the API. */
export function useCachedImage(id: string | null): ImageResponse['data'] | undefined {
  const queryClient = useQueryClient();
  return queryClient.getQueryData<ImageResponse>(queryKeys.image(id ?? ''))?.data;
}
