import type { GenerationDto, ImageDto } from '@prodshot/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubApi, type ApiCall } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { SmartResultsPage } from './smart-results.js';
import { SmartRunPage } from './smart-run.js';
import { expectRenditionOf, stored } from '../test-support/renditions.js';

const image: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'shoe.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/shoe.png'),
  coach: [],
};
const slot = (index: number, name: string) => ({
  index,
  name,
  prompt: `${name} scene`,
  status: 'queued' as const,
  progress: 0,
  url: null,
  thumbnailUrl: null,
  previewUrl: null,
  error: null,
});
const midway: GenerationDto = {
  id: 'gen-1',
  kind: 'smart',
  status: 'running',
  stage: 'generating',
  imageId: 'img-1',
  productInfo: { productTitle: 'Blue plimsolls', productDescription: 'Canvas shoes', productType: 'footwear' },
  error: null,
  unsupportedProduct: false,
  styles: [
    { ...slot(0, 'Marble'), status: 'complete', progress: 100, ...stored('/storage/marble.png') },
    { ...slot(1, 'Beach'), status: 'running', progress: 40 },
  ],
  createdAt: '2025-01-01T00:00:00.000Z',
};
const finished: GenerationDto = {
  ...midway,
  status: 'complete',
  styles: [
    midway.styles[0]!,
    { ...midway.styles[1]!, status: 'complete', progress: 100, ...stored('/storage/beach.png') },
  ],
};

const routes = [
  { path: '/smart/:generationId', element: <SmartRunPage /> },
  { path: '/smart-results/:generationId', element: <SmartResultsPage /> },
];
const starts = (calls: ApiCall[]) => calls.filter((c) => c.method !== 'GET');
const reads = (calls: ApiCall[]) => calls.filter((c) => c.path === '/generations/gen-1');
const completeCards = () =>
  screen.queryAllByTestId('style-card').filter((card) => card.textContent?.includes('Complete!'));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SmartRunPage (/smart/:generationId)', () => {
  it('resumes a run on reload: reads it, uploads and starts nothing, then follows the socket to its results', async () => {
    let row = midway;
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: row }),
      'GET /images/img-1': () => ({ data: image }),
    });
    const { router, queryClient } = renderRoutes(routes, ['/smart/gen-1']);

    expect(await screen.findByText('Generating… 40%')).toBeTruthy();
    expect(completeCards()).toHaveLength(1);
    expect(screen.getByText('1 of 2 styles ready')).toBeTruthy();
    expectRenditionOf(await screen.findByAltText('Your product'), '/storage/shoe.png');
    expect(starts(calls)).toEqual([]);

    const socket = fakeSocket(queryClient);
    socket.emit('generation:style', {
      generationId: 'gen-1',
      index: 1,
      status: 'complete',
      ...stored('/storage/beach.png'),
    });
    await waitFor(() => expect(completeCards()).toHaveLength(2));
    row = finished;
    socket.emit('generation:done', { generationId: 'gen-1', status: 'complete', error: null });

    fireEvent.click(await screen.findByRole('button', { name: 'View All Results' }));
    expect(router.state.location.pathname).toBe('/smart-results/gen-1');
    expect(await screen.findAllByRole('img', { name: /product shot$/ })).toHaveLength(2);
    expect(starts(calls)).toEqual([]);
  });

  it('reads the run again when the socket connects, so events sent before it joined are not missed', async () => {
    let row = midway;
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: row }),
      'GET /images/img-1': () => ({ data: image }),
    });
    const { queryClient } = renderRoutes(routes, ['/smart/gen-1']);
    expect(await screen.findByText('Generating… 40%')).toBeTruthy();

    row = finished;
    fakeSocket(queryClient).connect();
    await waitFor(() => expect(completeCards()).toHaveLength(2));
    expect(reads(calls)).toHaveLength(2);
    expect(await screen.findByRole('button', { name: 'View All Results' })).toBeTruthy();
  });

  it('reads the run when a socket event seeded it before its first read, so the photo shows while styles generate', async () => {
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: midway }),
      'GET /images/img-1': () => ({ data: image }),
    });
    const { router, queryClient } = renderRoutes(
      [...routes, { path: '/smart-upload', element: <p>Starting</p> }],
      ['/smart-upload'],
    );
    // The start's answer and its first stage event race: here the event wins, before the page asks for the row.
    fakeSocket(queryClient).emit('generation:stage', {
      generationId: 'gen-1',
      stage: 'generating',
      styles: [
        { index: 0, name: 'Marble' },
        { index: 1, name: 'Beach' },
      ],
    });
    await act(() => router.navigate('/smart/gen-1'));

    expectRenditionOf(await screen.findByAltText('Your product'), '/storage/shoe.png');
    expect(reads(calls)).toHaveLength(1);
    expect(completeCards()).toHaveLength(1);
  });

  it("shows a clear not-found state for an unknown or another seller's generation", async () => {
    const calls = stubApi({
      'GET /generations/gen-x': () => apiError(404, 'Generation not found', 'generation_not_found'),
    });
    renderRoutes(routes, ['/smart/gen-x']);
    expect(await screen.findByRole('heading', { name: 'Generation not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(calls).toHaveLength(1);
  });
});
