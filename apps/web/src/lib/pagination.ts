export const PAGE_SIZE = 12;
/** Up to this many pages every number is shown; above it, a window with ellipses (docs/product-spec.md §9). */
export const FULL_WINDOW_PAGES = 7;

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/** Page numbers to show for `current` of `total` (1-based): first, last, neighbours, ellipses between. */
export function pageWindow(current: number, total: number): PageItem[] {
  if (total <= FULL_WINDOW_PAGES) return Array.from({ length: total }, (_, i) => i + 1);
  const page = Math.min(Math.max(1, current), total);
  let start = Math.max(2, page - 1);
  let end = Math.min(total - 1, page + 1);
  // Near an edge the window grows inward so the row keeps the same width.
  if (page <= 3) {
    start = 2;
    end = 5;
  } else if (page >= total - 2) {
    start = total - 4;
    end = total - 1;
  }
  const items: PageItem[] = [1];
  if (start > 2) items.push('ellipsis-start');
  for (let n = start; n <= end; n += 1) items.push(n);
  if (end < total - 1) items.push('ellipsis-end');
  items.push(total);
  return items;
}

export function pageCount(items: number): number {
  return Math.max(1, Math.ceil(items / PAGE_SIZE));
}

export function pageSlice<T>(items: readonly T[], page: number): T[] {
  return items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
}
