import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PAGE_SIZE, pageCount, pageSlice } from '../lib/pagination.js';

/**
 * Items /all-uploads and /all-generations ask the API for at once: two screens of 12, so a page
 * opens with few images to sign and fetch, and 'Load more' brings the next two.
 */
const FETCH_SIZE = PAGE_SIZE * 2;

export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A history list the API pages with a cursor, shown 12 to a screen (docs/product-spec.md §9) with Previous and
 * Next over what has arrived; `loadMore` fetches the next API page and shows its first screen, so
 * every item can be reached however long the history.
 */
export function usePagedList<T>(queryKey: QueryKey, fetchPage: (limit: number, cursor: string | null) => Promise<ListPage<T>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(FETCH_SIZE, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.data) ?? [], [query.data]);
  const [page, setPage] = useState(1);
  const pages = pageCount(items.length);
  const current = Math.min(page, pages);

  async function loadMore(): Promise<void> {
    const shown = items.length;
    const result = await query.fetchNextPage();
    if (!result.isError) setPage(Math.floor(shown / PAGE_SIZE) + 1);
  }

  return {
    query,
    items,
    /** The items of the screen shown. */
    visible: pageSlice(items, current),
    page: current,
    pages,
    setPage,
    hasMore: query.hasNextPage,
    loadMore,
  };
}
