import type { GenerationListItem } from '@prodshot/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test-support/fake-api.js';
import { expectRenditionOf, renditionsOf } from '../test-support/renditions.js';
import { SHOT_FILES } from '../test-support/shot-files.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { AllGenerationsPage } from './all-generations.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** `count` outputs, newest first, as the API lists them. */
function outputs(count: number): GenerationListItem[] {
  return Array.from({ length: count }, (_, n) => ({
    id: `out-${n}`,
    generationId: `gen-${Math.floor(n / 4)}`,
    index: n % 4,
    imageUrl: `/storage/out-${n}.png`,
    ...renditionsOf(`/storage/out-${n}.png`),
    name: 'Marble',
    files: SHOT_FILES,
    createdAt: new Date(Date.UTC(2025, 0, 1) - n * 60_000).toISOString(),
  }));
}

describe('AllGenerationsPage', () => {
  it('numbers all nine pages with ellipses at once and fetches cursor pages up to the one chosen', async () => {
    const all = outputs(100);
    const page = (from: number) => ({
      data: all.slice(from, from + 24),
      nextCursor: from + 24 < all.length ? `c${from + 24}` : null,
      total: all.length,
    });
    const calls = stubApi({
      'GET /images/recent/generations': (_body, call) => page(Number(call.query.get('cursor')?.slice(1) ?? 0)),
    });
    renderRoutes([{ path: '/all-generations', element: <AllGenerationsPage /> }], ['/all-generations']);

    expectRenditionOf(await screen.findByAltText('Generation out-0'), '/storage/out-0.png');
    expect(screen.getByText('100 images')).toBeTruthy();
    const numbers = () =>
      [...screen.getByRole('navigation', { name: 'Pagination' }).querySelectorAll('li')].map(
        (item) => item.textContent,
      );
    expect(numbers()).toEqual(['1', '2', '3', '4', '5', '…', '9']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Page 9' }));
    await screen.findByAltText('Generation out-99');
    expect(screen.getByRole('button', { name: 'Page 9' }).getAttribute('aria-current')).toBe('page');
    expect(numbers()).toEqual(['1', '…', '5', '6', '7', '8', '9']);
    expect(within(screen.getByTestId('image-grid')).getAllByRole('listitem')).toHaveLength(4);
    expect(calls.map((call) => call.query.get('cursor'))).toEqual([null, 'c24', 'c48', 'c72', 'c96']);
    expect(calls.every((call) => call.query.get('limit') === '24')).toBe(true);

    // The popup opens on an item only the last page brought.
    fireEvent.click(screen.getByRole('button', { name: 'Open generation out-99' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it("says 'No generations yet' when there are none", async () => {
    stubApi({ 'GET /images/recent/generations': () => ({ data: [], nextCursor: null, total: 0 }) });
    renderRoutes([{ path: '/all-generations', element: <AllGenerationsPage /> }], ['/all-generations']);
    expect(await screen.findByText('No generations yet')).toBeTruthy();
  });
});
