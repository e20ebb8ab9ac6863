import type { ImageDto } from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SmartUploadState } from '../features/uploads/upload-items.js';
import { stubApi, type ApiCall } from '../test-support/fake-api.js';
import { sizedFile } from '../test-support/files.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { dashboardInput } from '../test-support/dashboard.js';
import { stored as storedFile } from '../test-support/renditions.js';
import { DashboardPage } from './dashboard.js';

const uploaded: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'mug.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: storedFile('/storage/mug.png'),
  coach: [],
};
const titled: ImageDto = {
  ...uploaded,
  _id: 'img-2',
  fileId: 'file-2',
  name: 'IMG_0042.jpg',
  productTitle: 'Linen tote bag',
};

beforeEach(() => {
  Object.assign(URL, { createObjectURL: () => 'blob:mug', revokeObjectURL: () => undefined });
});
afterEach(() => vi.unstubAllGlobals());

async function renderDashboard(
  routes: Record<string, (body: unknown) => unknown> = {},
): Promise<{ calls: ApiCall[]; router: ReturnType<typeof renderRoutes>['router'] }> {
  const calls = stubApi({
    'GET /images': () => ({ data: [titled], nextCursor: null }),
    'GET /images/recent/generations': () => ({ data: [], nextCursor: null }),
    'POST /images/upload': () => uploaded,
    'PUT /images/img-1/title': (body) => ({
      data: { ...uploaded, productTitle: (body as { productTitle: string }).productTitle },
    }),
    'PUT /images/img-2/title': (body) => ({
      data: { ...titled, productTitle: (body as { productTitle: string }).productTitle },
    }),
    ...routes,
  });
  const { router } = renderRoutes(
    [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/editor', element: <h1>Editor</h1> },
      { path: '/smart-upload', element: <h1>Smart upload</h1> },
    ],
    ['/dashboard'],
  );
  await dashboardInput();
  return { calls, router };
}

const dropZone = () => document.querySelector('.dropzone')!;
const sent = (calls: ApiCall[]) => calls.filter((call) => call.method !== 'GET');

describe('the dashboard takes an image', () => {
  it('pasted anywhere on the page, and says so under the drop zone', async () => {
    await renderDashboard();
    expect(await screen.findByText(/or paste an image with (Ctrl\+V|⌘V)/)).toBeTruthy();
    fireEvent.paste(document.body, {
      clipboardData: { files: [new File(['png'], 'image.png', { type: 'image/png' })], items: [] },
    });
    expect(await screen.findByRole('group', { name: 'Selected image' })).toBeTruthy();
    expect(screen.getByAltText('Selected image image.png').getAttribute('src')).toBe('blob:mug');
  });

  it('refuses a file over 10 MB before sending anything, and one at 10 MB goes through', async () => {
    const { calls } = await renderDashboard();
    fireEvent.drop(dropZone(), {
      dataTransfer: { files: [sizedFile('huge.jpg', 'image/jpeg', 10 * 1024 * 1024 + 1)] },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      '"huge.jpg" is 10.1 MB. Please select an image under 10MB.',
    );
    expect(screen.queryByRole('group', { name: 'Selected image' })).toBeNull();
    expect(sent(calls)).toEqual([]);
    fireEvent.drop(dropZone(), { dataTransfer: { files: [sizedFile('big.jpg', 'image/jpeg', 10 * 1024 * 1024)] } });
    expect(await screen.findByRole('group', { name: 'Selected image' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says clearly that a dropped, picked or pasted non-image is not one', async () => {
    const { calls } = await renderDashboard();
    const pdf = () => new File(['%PDF'], 'spec-sheet.pdf', { type: 'application/pdf' });
    const message = '"spec-sheet.pdf" is not an image. Please select an image file (JPEG, PNG, etc.)';
    fireEvent.drop(dropZone(), { dataTransfer: { files: [pdf()] } });
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    fireEvent.change(document.getElementById('image-input')!, { target: { files: [pdf()] } });
    expect(screen.getByRole('alert').textContent).toBe(message);
    fireEvent.paste(document.body, { clipboardData: { files: [pdf()], items: [] } });
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(sent(calls)).toEqual([]);
  });
});

describe("the dashboard's product title", () => {
  it('is saved on the new upload before the editor opens', async () => {
    const { calls, router } = await renderDashboard();
    fireEvent.change(document.getElementById('image-input')!, {
      target: { files: [new File(['png'], 'mug.png', { type: 'image/png' })] },
    });
    fireEvent.change(await screen.findByLabelText('Product title (optional)'), {
      target: { value: 'Blue ceramic mug' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Manual Design' }));
    expect(await screen.findByRole('heading', { name: 'Editor' })).toBeTruthy();
    expect(sent(calls).map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /images/upload',
      'PUT /images/img-1/title',
    ]);
    expect(sent(calls)[1]!.body).toEqual({ productTitle: 'Blue ceramic mug' });
    expect(router.state.location.state).toMatchObject({ imageId: 'img-1' });
  });

  it('goes with a fresh file to the smart page, which names the upload', async () => {
    const { calls, router } = await renderDashboard();
    fireEvent.change(document.getElementById('image-input')!, {
      target: { files: [new File(['png'], 'mug.png', { type: 'image/png' })] },
    });
    fireEvent.change(await screen.findByLabelText('Product title (optional)'), {
      target: { value: 'Blue ceramic mug' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Smart Upload' }));
    expect(await screen.findByRole('heading', { name: 'Smart upload' })).toBeTruthy();
    expect((router.state.location.state as SmartUploadState & { productTitle?: string }).productTitle).toBe(
      'Blue ceramic mug',
    );
    expect(sent(calls)).toEqual([]);
  });

  it("shows a stored upload's title, and saves only a change to it", async () => {
    const { calls } = await renderDashboard();
    fireEvent.click(await screen.findByRole('button', { name: 'Use IMG_0042.jpg' }));
    const field = (await screen.findByLabelText('Product title (optional)')) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('Linen tote bag'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Manual Design' }));
    expect(await screen.findByRole('heading', { name: 'Editor' })).toBeTruthy();
    expect(sent(calls)).toEqual([]);
  });

  it('saves a changed title of a stored upload before the smart page starts on it', async () => {
    const { calls } = await renderDashboard();
    fireEvent.click(await screen.findByRole('button', { name: 'Use IMG_0042.jpg' }));
    const field = (await screen.findByLabelText('Product title (optional)')) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('Linen tote bag'));
    fireEvent.change(field, { target: { value: 'Linen tote bag, natural' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Smart Upload' }));
    expect(await screen.findByRole('heading', { name: 'Smart upload' })).toBeTruthy();
    expect(sent(calls).map((call) => [call.path, call.body])).toEqual([
      ['/images/img-2/title', { productTitle: 'Linen tote bag, natural' }],
    ]);
  });
});
