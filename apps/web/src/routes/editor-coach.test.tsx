import { coachWarning, type ImageDto } from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EditorState } from '../features/uploads/upload-items.js';
import { stubApi } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { stored } from '../test-support/renditions.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { oneProduct, pendingSubject } from '../test-support/subjects.js';
import { EditorPage } from './editor.js';

const dark = coachWarning('too_dark', 'kitchenware');
const cutOff = coachWarning('product_cut_off', 'kitchenware');
const source: EditorState = { imageId: 'img-1', fileId: 'file-1', name: 'Mug' };
const upload: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'mug.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/mug.png'),
  coach: [dark],
};

function renderEditor() {
  const calls = stubApi({
    'GET /images/img-1': () => ({ data: upload }),
    'GET /images/img-1/subject': () => ({ data: { ...pendingSubject, coach: [dark] } }),
    'GET /images/recent/generations': () => ({ data: [] }),
    'POST /images/generate-product-shots': () => ({ data: { generationId: 'gen-1', status: 'queued' } }),
    'GET /generations/gen-1': () => ({
      data: {
        id: 'gen-1',
        kind: 'manual',
        status: 'queued',
        stage: null,
        imageId: 'img-1',
        productInfo: null,
        error: null,
        unsupportedProduct: false,
        styles: [],
        createdAt: '2025-01-01T00:00:00.000Z',
      },
    }),
  });
  const { queryClient } = renderRoutes(
    [{ path: '/editor', element: <EditorPage /> }],
    [{ pathname: '/editor', state: source }],
  );
  return { calls, socket: fakeSocket(queryClient) };
}

describe('EditorPage photo coach', () => {
  it('shows the upload’s warnings, adds those the subject brings, and going ahead generates with the background chosen', async () => {
    const { calls, socket } = renderEditor();
    expect(await screen.findByText(dark.advice)).toBeTruthy();
    socket.emit('image:subject', { ...oneProduct, coach: [dark, cutOff] });
    expect(await screen.findByText('Step back so the whole piece is in the frame.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go ahead anyway' }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/images/generate-product-shots')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/images/generate-product-shots')?.body).toMatchObject({
      imageId: 'img-1',
      backgroundType: 'lifestyle',
      count: 1,
    });
    expect(await screen.findByRole('button', { name: 'Generating…' })).toBeTruthy();
  });

  it('leads to Generate, spending nothing, while the background is still to choose', async () => {
    const { calls } = renderEditor();
    expect(await screen.findByText(dark.advice)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Custom Background' }));
    fireEvent.click(screen.getByRole('button', { name: 'Go ahead anyway' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Generate'));
    expect(calls.some((c) => c.path === '/images/generate-product-shots')).toBe(false);
  });
});
