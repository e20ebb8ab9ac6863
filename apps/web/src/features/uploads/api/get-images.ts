import type { ImageListResponse } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { pageQuery, request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { usePagedList } from '../../../hooks/use-paged-list.js';

/** The newest uploads: one page of the API's default size. */
export const getImages = () => request<ImageListResponse>('GET', '/images');

export const getImagesPage = (limit: number, cursor: string | null) =>
  request<ImageListResponse>('GET', `/images?${pageQuery(limit, cursor)}`);

export const imagesQueryOptions = () => queryOptions({ queryKey: queryKeys.images, queryFn: getImages });

export function useImages() {
  return useQuery(imagesQueryOptions());
}

/** /all-uploads: every upload, a cursor page at a time. */
export function useImagePages() {
  return usePagedList(queryKeys.imagePages, getImagesPage);
}
