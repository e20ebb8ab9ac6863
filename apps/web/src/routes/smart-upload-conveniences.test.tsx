import type { ImageDto } from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SmartUploadState } from '../features/uploads/upload-items.js';
import { stubApi, type ApiCall } from '../test-support/fake-api.js';
import { sizedFile } from '../test-support/files.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { stored } from '../test-support/renditions.js';
import { oneProduct } from '../test-support/subjects.js';
import { SmartUploadPage } from './smart-upload.js';

const uploaded: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'mug.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/mug.png'),
  coach: [],
};
const FIVE_MB = 5 * 1024 * 1024;

beforeEach(() => {
  Object.assign(URL, { createObjectURL: () => 'blob:own', revokeObjectURL: () => undefined });
});
afterEach(() => vi.unstubAllGlobals());

function renderSmart(state: SmartUploadState | null = null): ApiCall[] {
  const calls = stubApi({
    'POST /images/upload': () => uploaded,
    'PUT /images/img-1/title': (body) => ({
      data: { ...uploaded, productTitle: (body as { productTitle: string }).productTitle },
    }),
    'GET /images/img-1': () => ({ data: uploaded }),
    'GET /images/img-1/subject': () => ({ data: oneProduct }),
    'POST /images/smart-generate-product-shots': () => ({ data: { generationId: 'gen-1', status: 'queued' } }),
  });
  renderRoutes(
    [
      { path: '/smart-upload', element: <SmartUploadPage /> },
      { path: '/smart/:generationId', element: <h1>Smart run</h1> },
    ],
    [{ pathname: '/smart-upload', state }],
  );
  return calls;
}

const sentPaths = (calls: ApiCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`);

describe('the smart page checks a file before sending it', () => {
  it('refuses a file over 5 MB handed over from the dashboard (which takes 10 MB), and starts nothing', async () => {
    const calls = renderSmart({ file: sizedFile('shoot.jpg', 'image/jpeg', 8 * 1024 * 1024) });
    expect((await screen.findByRole('alert')).textContent).toBe(
      '"shoot.jpg" is 8.0 MB. Please select an image under 5MB.',
    );
    // The drop zone is back for a smaller one.
    expect(screen.getByText('Supports JPEG, PNG, WebP (Max 5MB)')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sentPaths(calls)).toEqual([]);
  });

  it('refuses a dropped file over 5 MB and a non-image, and takes one of exactly 5 MB', async () => {
    const calls = renderSmart();
    const zone = document.querySelector('.dropzone')!;
    fireEvent.drop(zone, { dataTransfer: { files: [sizedFile('big.png', 'image/png', FIVE_MB + 1)] } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      '"big.png" is 5.1 MB. Please select an image under 5MB.',
    );
    fireEvent.drop(zone, { dataTransfer: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] } });
    expect(screen.getByRole('alert').textContent).toBe(
      '"notes.txt" is not an image. Please select an image file (JPEG, PNG, etc.)',
    );
    fireEvent.drop(zone, { dataTransfer: { files: [sizedFile('ok.png', 'image/png', FIVE_MB)] } });
    expect(await screen.findByAltText('Your product')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sentPaths(calls)).toEqual([]);
  });

  it('takes a pasted image and offers the paste in words', async () => {
    renderSmart();
    expect(screen.getByText(/or paste an image with/)).toBeTruthy();
    fireEvent.paste(document.body, {
      clipboardData: { files: [new File(['png'], 'image.png', { type: 'image/png' })], items: [] },
    });
    expect(await screen.findByAltText('Your product')).toBeTruthy();
  });
});

describe("the smart page's product title", () => {
  it('names the upload before the run starts, so the engine reads it', async () => {
    const calls = renderSmart();
    fireEvent.drop(document.querySelector('.dropzone')!, {
      dataTransfer: { files: [new File(['png'], 'mug.png', { type: 'image/png' })] },
    });
    fireEvent.change(await screen.findByLabelText('Product title (optional)'), {
      target: { value: 'Blue ceramic mug' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Product Shots' }));
    expect(await screen.findByRole('heading', { name: 'Smart run' })).toBeTruthy();
    expect(sentPaths(calls)).toEqual([
      'POST /images/upload',
      'PUT /images/img-1/title',
      'POST /images/smart-generate-product-shots',
    ]);
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ productTitle: 'Blue ceramic mug' });
  });

  it('takes the title handed over from the dashboard with the file', async () => {
    const calls = renderSmart({
      file: new File(['png'], 'mug.png', { type: 'image/png' }),
      productTitle: 'Linen tote bag',
    });
    expect(await screen.findByRole('heading', { name: 'Smart run' })).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ productTitle: 'Linen tote bag' });
  });

  it('sends no title call when none was given', async () => {
    const calls = renderSmart({ file: new File(['png'], 'mug.png', { type: 'image/png' }) });
    expect(await screen.findByRole('heading', { name: 'Smart run' })).toBeTruthy();
    await waitFor(() =>
      expect(sentPaths(calls)).toEqual(['POST /images/upload', 'POST /images/smart-generate-product-shots']),
    );
  });
});
