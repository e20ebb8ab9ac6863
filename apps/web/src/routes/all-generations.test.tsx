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
  it("reaches every generation, page after page of the API, with 'Load more'", async () => {
    const all = outputs(53);
    const pages: Record<string, { data: GenerationListItem[]; nextCursor: string | null }> = {
      '': { data: all.slice(0, 24), nextCursor: 'c24' },
      c24: { data: all.slice(24, 48), nextCursor: 'c48' },
      c48: { data: all.slice(48), nextCursor: null },
    };
    const calls = stubApi({ 'GET /images/recent/generations': (_body, call) => pages[call.query.get('cursor') ?? ''] });
    renderRoutes([{ path: '/all-generations', element: <AllGenerationsPage /> }], ['/all-generations']);

    expectRenditionOf(await screen.findByAltText('Generation out-0'), '/storage/out-0.png');
    expect(screen.getByText('24+ images')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByAltText('Generation out-24');
    expect(screen.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByAltText('Generation out-48');
    expect(screen.getByRole('button', { name: 'Page 5' }).getAttribute('aria-current')).toBe('page');
    expect(within(screen.getByTestId('image-grid')).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByText('53 images')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.map((call) => call.query.get('cursor'))).toEqual([null, 'c24', 'c48']);
    expect(calls.every((call) => call.query.get('limit') === '24')).toBe(true);

    // The popup opens on an item only the last page brought.
    fireEvent.click(screen.getByRole('button', { name: 'Open generation out-52' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it("says 'No generations yet' when there are none", async () => {
    stubApi({ 'GET /images/recent/generations': () => ({ data: [], nextCursor: null }) });
    renderRoutes([{ path: '/all-generations', element: <AllGenerationsPage /> }], ['/all-generations']);
    expect(await screen.findByText('No generations yet')).toBeTruthy();
  });
});
