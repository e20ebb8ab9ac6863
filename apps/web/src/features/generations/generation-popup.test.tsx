import type { GenerationListItem } from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { catchDownloadsInEachTest } from '../../test-support/downloads.js';
import { stubApi } from '../../test-support/fake-api.js';
import { renderRoutes } from '../../test-support/render-routes.js';
import { renditionsOf } from '../../test-support/renditions.js';
import { SHOT_FILES } from '../../test-support/shot-files.js';
import { GenerationPopup, popupTitle } from './generation-popup.js';

const shot: GenerationListItem = {
  id: 'out-1',
  generationId: '5f0c6c1e-2b7a-4d1e-9a49-0f7b5b0e2d11',
  index: 0,
  name: 'Marble',
  imageUrl: '/storage/out.png',
  ...renditionsOf('/storage/out.png'),
  files: SHOT_FILES,
  createdAt: '2026-11-27T10:00:00.000Z',
};
const bytes = (head: number[], type: string) => () =>
  new Response(new Uint8Array([...head, 0, 0, 0, 0, 0, 0, 0, 0]), { status: 200, headers: { 'content-type': type } });

const downloads = catchDownloadsInEachTest();

describe('a shot popup', () => {
  it('is headed by its style and date, not its id', async () => {
    stubApi({});
    renderRoutes([{ path: '/', element: <GenerationPopup generation={shot} onClose={() => undefined} /> }], ['/']);
    expect(await screen.findByRole('dialog', { name: 'Marble · 27 Nov 2026' })).toBeTruthy();
    expect(screen.queryByText(/Generation #/)).toBeNull();
    expect(popupTitle({ name: 'Urban Concrete', createdAt: '2026-01-05T23:00:00.000Z' })).toMatch(
      /^Urban Concrete · [56] Jan 2026$/,
    );
  });

  it('downloads the JPEG, and the original PNG from the choice that names its size', async () => {
    const calls = stubApi({
      [`GET /generations/${shot.generationId}/styles/0/download`]: (_body, call) =>
        call.query.get('file') === 'original'
          ? bytes([0x89, 0x50, 0x4e, 0x47], 'image/png')()
          : bytes([0xff, 0xd8, 0xff, 0xe0], 'image/jpeg')(),
    });
    renderRoutes([{ path: '/', element: <GenerationPopup generation={shot} onClose={() => undefined} /> }], ['/']);
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Download original PNG · 18 MB' }));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads).toEqual(['generation-out-1.jpg', 'generation-out-1.png']);
    expect(calls.filter((call) => call.path.endsWith('/download')).map((call) => call.query.get('file'))).toEqual([
      null,
      'original',
    ]);
  });
});
