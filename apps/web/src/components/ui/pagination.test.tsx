import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { pageCount, pageSlice, pageWindow } from '../../lib/pagination.js';
import { Pagination } from './pagination.js';

describe('pageWindow', () => {
  it('lists every page up to 7', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('uses a window with ellipses above 7 pages', () => {
    expect(pageWindow(1, 8)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end', 8]);
    expect(pageWindow(5, 10)).toEqual([1, 'ellipsis-start', 4, 5, 6, 'ellipsis-end', 10]);
    expect(pageWindow(10, 10)).toEqual([1, 'ellipsis-start', 6, 7, 8, 9, 10]);
    expect(pageWindow(8, 10)).toEqual([1, 'ellipsis-start', 6, 7, 8, 9, 10]);
  });

  it('always includes the first, the last and the current page', () => {
    for (let total = 8; total <= 30; total += 1) {
      for (let current = 1; current <= total; current += 1) {
        const items = pageWindow(current, total);
        expect(items[0]).toBe(1);
        expect(items.at(-1)).toBe(total);
        expect(items).toContain(current);
        expect(items.length).toBeLessThanOrEqual(7);
      }
    }
  });

  it('slices 12 items a page', () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    expect(pageCount(items.length)).toBe(3);
    expect(pageSlice(items, 1)).toHaveLength(12);
    expect(pageSlice(items, 3)).toEqual([24]);
    expect(pageCount(0)).toBe(1);
  });
});

describe('Pagination', () => {
  it('disables Previous on the first page and Next on the last, and reports page changes', () => {
    const onPage = vi.fn();
    const { rerender } = render(<Pagination page={1} pages={9} onPage={onPage} />);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByText('…')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenLastCalledWith(2);
    rerender(<Pagination page={9} pages={9} onPage={onPage} />);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(onPage).toHaveBeenLastCalledWith(1);
    expect(screen.getByRole('button', { name: 'Page 9' }).getAttribute('aria-current')).toBe('page');
  });

  it('renders nothing for a single page', () => {
    const { container } = render(<Pagination page={1} pages={1} onPage={() => {}} />);
    expect(container.innerHTML).toBe('');
  });
});
