import type { ImageDto } from '@prodshot/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.js';
import { stubApi } from '../test-support/fake-api.js';
import { expectRenditionOf, stored } from '../test-support/renditions.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { AllUploadsPage } from './all-uploads.js';

const longName = 'spring-collection-blue-canvas-plimsolls-left-side-studio-photo-final-v3.png';
const upload: ImageDto = { _id: 'img-1', fileId: 'file-1', name: longName, createdAt: '2025-03-04T10:00:00.000Z', originalImage: stored('/storage/plimsolls.png') };

function renderUploads(images: ImageDto[]) {
  stubApi({ 'GET /images': () => ({ data: images }) });
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
