import type { GenerationDto, ImageDto } from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../lib/query-keys.js';
import { stubApi, type ApiCall } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { stored } from '../test-support/renditions.js';
import { SHOT_FILES } from '../test-support/shot-files.js';
import { oneProduct } from '../test-support/subjects.js';
import { EditorPage } from './editor.js';
import { SmartResultsPage } from './smart-results.js';
import { catchDownloadsInEachTest } from '../test-support/downloads.js';

const upload: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'IMG_0042.png',
  productTitle: 'Blue ceramic mug',
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/mug.png'),
  coach: [],
};
const slot = {
  index: 0,
  name: 'Marble',
  prompt: 'marble',
  status: 'complete' as const,
  progress: 100,
  ...stored('/storage/out.png'),
  error: null,
};
const done: GenerationDto = {
  id: 'gen-1',
  kind: 'manual',
  status: 'complete',
  stage: null,
  imageId: 'img-1',
  productInfo: null,
  error: null,
  unsupportedProduct: false,
  styles: [slot],
  createdAt: '2025-01-01T00:00:00.000Z',
};
// A PNG shot: its download takes .png from the type, whatever the name it is given (issue 18: extension matches bytes).
const fullShot = () => new Response(new Uint8Array(10), { status: 200, headers: { 'content-type': 'image/png' } });
const jpegShot = () =>
  new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0]), {
    status: 200,
    headers: { 'content-type': 'image/jpeg' },
  });

const downloads = catchDownloadsInEachTest();

function renderEditor(image: ImageDto): { calls: ApiCall[]; socket: ReturnType<typeof fakeSocket> } {
  const calls = stubApi({
    'GET /images/img-1': () => ({ data: image }),
    'GET /images/img-1/subject': () => ({ data: oneProduct }),
    'GET /images/recent/generations': () => ({ data: [], nextCursor: null }),
    'POST /images/generate-product-shots': () => ({ data: { generationId: 'gen-1', status: 'queued' } }),
    'GET /generations/gen-1': () => ({ data: done }),
    'GET /generations/gen-1/styles/0/download': fullShot,
    'PUT /images/img-1/title': (body) => ({
      data: { ...image, productTitle: (body as { productTitle: string }).productTitle },
    }),
  });
  const { queryClient } = renderRoutes(
    [{ path: '/editor', element: <EditorPage /> }],
    [{ pathname: '/editor', state: { imageId: 'img-1', fileId: 'file-1' } }],
  );
  return { calls, socket: fakeSocket(queryClient) };
}

async function generateAndDownload(): Promise<void> {
  fireEvent.click(await screen.findByRole('button', { name: 'Generate' }));
  const download = await screen.findByRole('button', { name: 'Download' });
  await waitFor(() => expect((download as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(download);
  await waitFor(() => expect(downloads).toHaveLength(1));
}

describe('the product title in the editor', () => {
  it("starts from the upload's title, goes to the engine as the hint, and names the download", async () => {
    const { calls } = renderEditor(upload);
    expect(((await screen.findByLabelText('Product title (optional)')) as HTMLInputElement).value).toBe(
      'Blue ceramic mug',
    );
    await generateAndDownload();
    expect(calls.find((call) => call.path === '/images/generate-product-shots')!.body).toMatchObject({
      productTitle: 'Blue ceramic mug',
    });
    expect(downloads[0]).toMatch(/^blue-ceramic-mug-image-\d+\.png$/);
  });

  it('saves a title given in the editor when the seller leaves the field, and uses it at once', async () => {
    const { calls } = renderEditor({ ...upload, productTitle: null });
    const field = await screen.findByLabelText('Product title (optional)');
    fireEvent.change(field, { target: { value: 'Linen tote bag' } });
    fireEvent.blur(field);
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
        { productTitle: 'Linen tote bag' },
      ]),
    );
    await generateAndDownload();
    expect(downloads[0]).toMatch(/^linen-tote-bag-image-\d+\.png$/);
  });

  it("falls back to the file's name without a title, as before", async () => {
    renderEditor({ ...upload, productTitle: null });
    await generateAndDownload();
    expect(downloads[0]).toMatch(/^img-0042-image-\d+\.png$/);
  });
});

describe('the product title on smart results', () => {
  function renderResults(image: (() => unknown) | undefined) {
    stubApi({
      'GET /generations/gen-1': () => ({ data: { ...done, kind: 'smart' } }),
      'GET /generations/gen-1/styles/0/download': fullShot,
      ...(image ? { 'GET /images/img-1': image } : {}),
    });
    return renderRoutes(
      [{ path: '/smart-results/:generationId', element: <SmartResultsPage /> }],
      ['/smart-results/gen-1'],
    ).queryClient;
  }

  it("names each download after the upload's title", async () => {
    const queryClient = renderResults(() => ({ data: upload }));
    await screen.findByRole('button', { name: 'Download' });
    // The upload's title arrives beside the run.
    await waitFor(() => expect(queryClient.getQueryData(queryKeys.image('img-1'))).toBeDefined());
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]).toMatch(/^blue-ceramic-mug-shot-\d+\.png$/);
  });

  it('saves the JPEG Download gives named after the product, and the original PNG as the choice that names its size', async () => {
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: { ...done, kind: 'smart', styles: [{ ...slot, files: SHOT_FILES }] } }),
      'GET /generations/gen-1/styles/0/download': (_body, call) =>
        call.query.get('file') === 'original' ? fullShot() : jpegShot(),
      'GET /images/img-1': () => ({ data: upload }),
    });
    renderRoutes([{ path: '/smart-results/:generationId', element: <SmartResultsPage /> }], ['/smart-results/gen-1']);
    const original = await screen.findByRole('button', { name: 'Download original PNG · 18 MB' });
    expect(original.textContent).toBe('PNG · 18 MB');
    await waitFor(() => expect(calls.some((call) => call.path === '/images/img-1')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    fireEvent.click(original);
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[0]).toMatch(/^blue-ceramic-mug-shot-\d+\.jpg$/);
    expect(downloads[1]).toMatch(/^blue-ceramic-mug-shot-\d+\.png$/);
    expect(calls.filter((call) => call.path.endsWith('/download')).map((call) => call.query.get('file'))).toEqual([
      null,
      'original',
    ]);
  });

  it('offers no second choice for a shot whose download is its original', async () => {
    stubApi({
      'GET /generations/gen-1': () => ({
        data: {
          ...done,
          kind: 'smart',
          styles: [{ ...slot, files: { download: SHOT_FILES.original!, original: null } }],
        },
      }),
    });
    renderRoutes([{ path: '/smart-results/:generationId', element: <SmartResultsPage /> }], ['/smart-results/gen-1']);
    await screen.findByRole('button', { name: 'Download' });
    expect(screen.queryByRole('button', { name: /original/ })).toBeNull();
  });

  it("keeps 'product-shot-…' when the upload is gone", async () => {
    renderResults(undefined);
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]).toMatch(/^product-shot-\d+\.png$/);
  });
});
