import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { PAGE_SIZE, pageCount, pageSlice } from '../lib/pagination.js';

/**
 * Items /all-uploads and /all-generations ask the API for at once: two screens of 12, so a page
 * opens with few images to sign and fetch, and the next screens need no wait.
 */
const FETCH_SIZE = PAGE_SIZE * 2;

export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
  total: number;
}

/**
 * A history list shown 12 to a screen with numbered pages (docs/product-spec.md §9), over an API
 * that pages with a cursor: the first answer's `total` numbers every page at once, and a page
 * whose items have not arrived fetches cursor pages until it has them.
 */
export function usePagedList<T>(
  queryKey: QueryKey,
  fetchPage: (limit: number, cursor: string | null) => Promise<ListPage<T>>,
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(FETCH_SIZE, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.data) ?? [], [query.data]);
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const [page, setPage] = useState(1);
  const pages = pageCount(Math.max(total, items.length));
  const current = Math.min(page, pages);
  const needed = Math.min(current * PAGE_SIZE, total);
  const missing = items.length < needed && query.hasNextPage;
  const { fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = query;
  const loaded = items.length;

  // One cursor page at a time until the chosen page's items are here; a failure waits for `retry`.
  useEffect(() => {
    if (loaded < needed && hasNextPage && !isFetching && !isFetchNextPageError) void fetchNextPage();
  }, [loaded, needed, hasNextPage, isFetching, isFetchNextPageError, fetchNextPage]);

  return {
    query,
    items,
    total,
    /** The items of the screen shown; empty while they are on their way. */
    visible: missing ? [] : pageSlice(items, current),
    /** The chosen page's items are being fetched. */
    loadingPage: missing && !isFetchNextPageError,
    /** Fetching the chosen page's items failed. */
    pageFailed: missing && isFetchNextPageError,
    retry: () => void fetchNextPage(),
    page: current,
    pages,
    setPage,
  };
}
