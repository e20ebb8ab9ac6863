import type { GenerationDto } from '@prodshot/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { SmartResultsEntry, SmartResultsPage } from './smart-results.js';
import { stored } from '../test-support/renditions.js';

const style = (index: number, name: string, status: 'complete' | 'failed') => ({
  index,
  name,
  prompt: null,
  status,
  progress: status === 'complete' ? 100 : 0,
  ...(status === 'complete'
    ? stored(`/storage/${name.toLowerCase()}.png`)
    : { url: null, thumbnailUrl: null, previewUrl: null }),
  error: status === 'failed' ? 'The engine gave up' : null,
});
const run: GenerationDto = {
  id: 'gen-1',
  kind: 'smart',
  status: 'complete',
  stage: 'generating',
  imageId: 'img-1',
  productInfo: { productTitle: 'Blue plimsolls', productDescription: 'Canvas shoes', productType: 'footwear' },
  error: null,
  unsupportedProduct: false,
  styles: [style(0, 'Marble', 'complete'), style(1, 'Beach', 'failed'), style(2, 'Studio', 'complete')],
  createdAt: '2025-01-01T00:00:00.000Z',
};

const routes = [
  { path: '/dashboard', element: <h1>Dashboard</h1> },
  { path: '/smart-results', element: <SmartResultsEntry /> },
  { path: '/smart-results/:generationId', element: <SmartResultsPage /> },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SmartResultsPage', () => {
  it("shows a run's shots from the API alone (a reload, a shared link), leaving failed styles out", async () => {
    stubApi({ 'GET /generations/gen-1': () => ({ data: run }) });
    renderRoutes(routes, ['/smart-results/gen-1']);
    expect(await screen.findByRole('heading', { name: 'Your Product Shots' })).toBeTruthy();
    expect(screen.getByText('Blue plimsolls')).toBeTruthy();
    expect(screen.getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual([
      'Marble product shot',
      'Studio product shot',
    ]);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['All Styles', 'Marble', 'Studio']);
    fireEvent.click(screen.getByRole('tab', { name: 'Studio' }));
    expect(screen.getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['Studio product shot']);
  });

  it('gives each result card one primary button, Download; Export, Open in editor and the paid More like this are ghosts', async () => {
    stubApi({ 'GET /generations/gen-1': () => ({ data: run }) });
    renderRoutes(routes, ['/smart-results/gen-1']);
    const cards = (await screen.findAllByRole('listitem')).filter((item) => item.classList.contains('result'));
    expect(cards).toHaveLength(2);
    for (const card of cards) {
      const buttons = within(card).getAllByRole('button');
      expect(
        buttons.filter((button) => !button.classList.contains('button-ghost')).map((button) => button.textContent),
      ).toEqual(['Download']);
      expect(buttons.map((button) => button.textContent)).toEqual(
        expect.arrayContaining([
          'Export',
          expect.stringMatching(/^Open in editor/),
          expect.stringMatching(/^More like this · 1 credit/),
        ]),
      );
    }
    // The style filter is a row of chips that scrolls, not tabs that wrap.
    expect(screen.getByRole('tablist', { name: 'Style filter' }).classList.contains('style-chips')).toBe(true);
  });

  it("takes the spec's /smart-results entry to the run its state names, or to /dashboard without one", async () => {
    stubApi({ 'GET /generations/gen-1': () => ({ data: run }) });
    const { router } = renderRoutes(routes, [
      { pathname: '/smart-results', state: { generationId: 'gen-1', images: [], productInfo: null } },
    ]);
    expect(await screen.findByRole('heading', { name: 'Your Product Shots' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/smart-results/gen-1');

    await router.navigate('/smart-results');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });

  it('shows a clear not-found state for an unknown id', async () => {
    stubApi({ 'GET /generations/nope': () => apiError(404, 'Generation not found', 'generation_not_found') });
    renderRoutes(routes, ['/smart-results/nope']);
    expect(await screen.findByRole('heading', { name: 'Generation not found' })).toBeTruthy();
  });
});
