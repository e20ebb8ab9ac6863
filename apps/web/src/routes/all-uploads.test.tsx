import type { ImageDto } from '@prodshot/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.js';
import { apiError, stubApi } from '../test-support/fake-api.js';
import { expectRenditionOf, stored } from '../test-support/renditions.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { AllUploadsPage } from './all-uploads.js';

const longName = 'spring-collection-blue-canvas-plimsolls-left-side-studio-photo-final-v3.png';
const upload: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: longName,
  productTitle: null,
  createdAt: '2025-03-04T10:00:00.000Z',
  originalImage: stored('/storage/plimsolls.png'),
  coach: [],
};

function renderUploads(images: ImageDto[]) {
  stubApi({ 'GET /images': () => ({ data: images, nextCursor: null, total: images.length }) });
  renderRoutes([{ path: '/all-uploads', element: <AllUploadsPage /> }], ['/all-uploads']);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AllUploadsPage', () => {
  it('shows each upload by its rendition, with its whole name and a one-line date', async () => {
    renderUploads([upload]);
    expectRenditionOf(await screen.findByAltText(longName), '/storage/plimsolls.png');
    const name = screen.getByText(longName);
    expect(name.getAttribute('title')).toBe(longName);
    expect(name.className).toBe('tile-name');
    expect(screen.getByText(formatDate(upload.createdAt)).className).toContain('tile-date');
  });

  it("offers 'Upload your first photo' when there is nothing yet", async () => {
    renderUploads([]);
    const action = await screen.findByRole('link', { name: 'Upload your first photo' });
    expect(action.getAttribute('href')).toBe('/dashboard');
  });
});

/** `count` uploads, newest first, as the API lists them. */
function uploads(count: number): ImageDto[] {
  return Array.from({ length: count }, (_, n) => ({
    _id: `img-${n}`,
    fileId: `file-${n}`,
    name: `photo-${n}.png`,
    productTitle: null,
    createdAt: new Date(Date.UTC(2025, 0, 1) - n * 60_000).toISOString(),
    originalImage: stored(`/storage/photo-${n}.png`),
    coach: [],
  }));
}

describe('AllUploadsPage beyond the first page of the API', () => {
  const all = uploads(30);

  function renderPaged(second: () => unknown = () => ({ data: all.slice(24), nextCursor: null, total: 30 })) {
    const calls = stubApi({
      'GET /images': (_body, call) =>
        call.query.get('cursor') === 'after-24'
          ? second()
          : { data: all.slice(0, 24), nextCursor: 'after-24', total: 30 },
    });
    renderRoutes([{ path: '/all-uploads', element: <AllUploadsPage /> }], ['/all-uploads']);
    return calls;
  }

  it('numbers every page from the first answer and fetches a page by cursor when it is chosen', async () => {
    const calls = renderPaged();
    await screen.findByAltText('photo-0.png');
    expect(screen.getByText('30 images')).toBeTruthy();
    expect(within(screen.getByTestId('image-grid')).getAllByRole('listitem')).toHaveLength(12);
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.map((call) => call.query.toString())).toEqual(['limit=24']);

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByAltText('photo-29.png');
    expect(calls.map((call) => call.query.toString())).toEqual(['limit=24', 'limit=24&cursor=after-24']);
    expect(screen.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');
    expect(within(screen.getByTestId('image-grid')).getAllByRole('listitem')).toHaveLength(6);

    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(await screen.findByAltText('photo-0.png')).toBeTruthy();
    expect(calls).toHaveLength(2);
  });

  it('keeps the page numbers and offers to try again when a page fails to arrive', async () => {
    let failures = 1;
    renderPaged(() =>
      failures-- > 0
        ? apiError(500, 'Something went wrong on our side. Please try again.')
        : { data: all.slice(24), nextCursor: null, total: 30 },
    );
    await screen.findByAltText('photo-0.png');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByAltText('photo-12.png')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load uploads. Please try again.');
    expect(screen.getByRole('button', { name: 'Page 1' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByAltText('photo-29.png');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
