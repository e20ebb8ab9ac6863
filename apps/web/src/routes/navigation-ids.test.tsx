import type { GenerationDto, ImageDto, GenerationListItem } from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EditorState } from '../features/uploads/upload-items.js';
import { setTokenSource } from '../lib/api-client.js';
import { stubApi, type ApiCall } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { renditionsOf, stored } from '../test-support/renditions.js';
import { SHOT_FILES } from '../test-support/shot-files.js';
import { oneProduct } from '../test-support/subjects.js';
import { AllUploadsPage } from './all-uploads.js';
import { DashboardPage } from './dashboard.js';
import { EditorPage } from './editor.js';
import { SmartResultsPage } from './smart-results.js';
import { SmartUploadPage } from './smart-upload.js';

/**
 * Signed links expire within two hours, while a history entry's state lives as long as the tab:
 * pages hand each other ids only, and read the links from the API when they show the image.
 */
const EXPIRED = '/storage/expired-link.png';
const FRESH = '/storage/signed-now.png';
const upload = (url: string): ImageDto => ({
  _id: 'img-1',
  fileId: 'file-1',
  name: 'mug.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored(url),
  coach: [],
});

/** Every string anywhere in a value: none may be a link. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}
const links = (state: unknown) => strings(state).filter((text) => /^(\/storage|\/api\/files|https?:|blob:)/.test(text));

const shot: GenerationListItem = {
  id: 'out-1',
  generationId: 'gen-1',
  index: 2,
  imageUrl: 'http://files.example/bucket/out.png?X-Amz-Signature=x',
  ...renditionsOf('/storage/out.png'),
  name: 'Marble',
  files: SHOT_FILES,
  createdAt: '2025-01-01T00:00:00.000Z',
};

let downloads: string[];
beforeEach(() => {
  downloads = [];
  Object.assign(URL, { createObjectURL: (blob: Blob) => `blob:${blob.size}`, revokeObjectURL: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(`${this.download} ${this.href}`);
  });
  setTokenSource(() => 'seller-token');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setTokenSource(() => null);
});

const fullShot = () =>
  new Response(new Uint8Array(1234), {
    status: 200,
    headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="generation-gen-1-3.png"' },
  });
const downloadCalls = (calls: ApiCall[]) => calls.filter((call) => call.path.endsWith('/download'));

describe('navigation state carries ids, never signed links', () => {
  it('/all-uploads hands the dashboard the upload by its ids', async () => {
    stubApi({
      'GET /images': () => ({ data: [upload(FRESH)] }),
      'GET /images/recent/generations': () => ({ data: [] }),
    });
    const { router } = renderRoutes(
      [
        { path: '/all-uploads', element: <AllUploadsPage /> },
        { path: '/dashboard', element: <h1>Dashboard</h1> },
      ],
      ['/all-uploads'],
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Use mug.png' }));
    await screen.findByRole('heading', { name: 'Dashboard' });
    const state = router.state.location.state as { selectedImage: Record<string, unknown> };
    expect(state.selectedImage).toMatchObject({ id: 'file-1', imageId: 'img-1', fileId: 'file-1', name: 'mug.png' });
    expect(links(state)).toEqual([]);
  });

  it('the dashboard, handed an upload by id, shows it from links the API signs now, and sends the editor ids only', async () => {
    const calls = stubApi({
      // The list no longer holds it (another page of uploads): the dashboard asks for the one image.
      'GET /images': () => ({ data: [] }),
      'GET /images/recent/generations': () => ({ data: [] }),
      'GET /images/img-1': () => ({ data: upload(FRESH) }),
    });
    const { router } = renderRoutes(
      [
        { path: '/dashboard', element: <DashboardPage /> },
        { path: '/editor', element: <h1>Editor</h1> },
      ],
      [
        {
          pathname: '/dashboard',
          state: { selectedImage: { id: 'file-1', imageId: 'img-1', fileId: 'file-1', name: 'mug.png' } },
        },
      ],
    );
    const preview = await screen.findByAltText('Selected image mug.png');
    expect(preview.getAttribute('src')).toBe(renditionsOf(FRESH).previewUrl);
    expect(calls.some((call) => call.path === '/images/img-1')).toBe(true);
    await waitFor(() => expect(router.state.location.state).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Continue with Manual Design' }));
    await screen.findByRole('heading', { name: 'Editor' });
    expect(router.state.location.state).toEqual({ imageId: 'img-1', fileId: 'file-1', name: 'mug.png' });
  });

  it('the editor, revisited with the ids its history entry holds, reads fresh links from the API', async () => {
    stubApi({
      'GET /images/img-1': () => ({ data: upload(FRESH) }),
      'GET /images/img-1/subject': () => ({ data: oneProduct }),
      'GET /images/recent/generations': () => ({ data: [] }),
    });
    const state: EditorState = { imageId: 'img-1', fileId: 'file-1', name: 'Mug' };
    renderRoutes([{ path: '/editor', element: <EditorPage /> }], [{ pathname: '/editor', state }]);
    const photo = await screen.findByAltText('Original photo of Mug');
    expect(photo.getAttribute('src')).toBe(renditionsOf(FRESH).previewUrl);
  });

  it('the editor goes back to /dashboard when its state names no upload, as an old link-only state does', async () => {
    stubApi({});
    const { router } = renderRoutes(
      [
        { path: '/editor', element: <EditorPage /> },
        { path: '/dashboard', element: <h1>Dashboard</h1> },
      ],
      [{ pathname: '/editor', state: { imageUrl: EXPIRED, previewUrl: EXPIRED } }],
    );
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('the smart upload page shows a stored upload from links the API signs now', async () => {
    stubApi({
      'GET /images/img-1': () => ({ data: upload(FRESH) }),
      'GET /images/img-1/subject': () => ({ data: { ...oneProduct, status: 'pending' } }),
    });
    renderRoutes(
      [{ path: '/smart-upload', element: <SmartUploadPage /> }],
      [{ pathname: '/smart-upload', state: { imageId: 'img-1', fileId: 'file-1', name: 'mug.png' } }],
    );
    await waitFor(() =>
      expect(screen.getByAltText('Your product').getAttribute('src')).toBe(renditionsOf(FRESH).previewUrl),
    );
  });
});

describe('downloads come through the API from the app origin, whatever origin the signed link is on', () => {
  it('the generation popup fetches /api/generations/{id}/styles/{index}/download with the bearer token and saves generation-{id}.png', async () => {
    const calls = stubApi({
      'GET /images': () => ({ data: [] }),
      'GET /images/recent/generations': () => ({ data: [shot] }),
      'GET /generations/gen-1/styles/2/download': fullShot,
    });
    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], ['/dashboard']);
    fireEvent.click(await screen.findByRole('button', { name: 'Open generation out-1' }));
    // The popup is its own chunk on the dashboard: it opens once that has loaded.
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads).toEqual(['generation-out-1.png blob:1234']));
    expect(downloadCalls(calls).map((call) => call.headers.authorization)).toEqual(['Bearer seller-token']);
    expect(vi.mocked(fetch).mock.calls.map(([url]) => url)).not.toContain(shot.imageUrl);
  });

  it('the smart results page downloads each style by its generation and slot', async () => {
    const run: GenerationDto = {
      id: 'gen-1',
      kind: 'smart',
      status: 'complete',
      stage: 'generating',
      imageId: 'img-1',
      productInfo: null,
      error: null,
      unsupportedProduct: false,
      styles: [
        {
          index: 2,
          name: 'Marble',
          prompt: 'marble',
          status: 'complete',
          progress: 100,
          url: shot.imageUrl,
          ...renditionsOf('/storage/out.png'),
          error: null,
        },
      ],
      createdAt: '2025-01-01T00:00:00.000Z',
    };
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: run }),
      'GET /generations/gen-1/styles/2/download': fullShot,
    });
    renderRoutes([{ path: '/smart-results/:generationId', element: <SmartResultsPage /> }], ['/smart-results/gen-1']);
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    // The bytes are declared PNG: the name says .png (it said .jpg before, whatever the file held).
    expect(downloads[0]).toMatch(/^product-shot-\d+\.png blob:1234$/);
    expect(downloadCalls(calls)).toHaveLength(1);
  });
});
