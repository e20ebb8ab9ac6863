import type { GenerationDto, ImageDto, ProductShotRequest } from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EditorState } from '../features/uploads/upload-items.js';
import { stubApi, type ApiCall } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { expectRenditionOf, stored } from '../test-support/renditions.js';
import { oneProduct } from '../test-support/subjects.js';
import { EditorPage } from './editor.js';

const source: EditorState = { imageId: 'img-1', fileId: 'file-1', name: 'Mug' };
const upload: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'Mug',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/mug.png'),
  coach: [],
};
const scene = { name: 'Marble Vanity', prompt: 'white marble bathroom shelf, soft diffused light, elegant' };

function autoGeneration(count: number, status: GenerationDto['status']): GenerationDto {
  return {
    id: 'gen-auto',
    kind: 'auto',
    status,
    stage: null,
    imageId: 'img-1',
    productInfo: { productTitle: 'Mug', productDescription: '', productType: 'beauty' },
    error: null,
    unsupportedProduct: false,
    styles: Array.from({ length: count }, (_, index) => ({
      index,
      ...scene,
      status,
      progress: status === 'complete' ? 100 : 0,
      ...(status === 'complete'
        ? stored(`/storage/auto-${index}.png`)
        : { url: null, thumbnailUrl: null, previewUrl: null }),
      error: null,
    })),
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

function renderEditor(count: number) {
  const calls = stubApi({
    'GET /images/img-1': () => ({ data: upload }),
    'GET /images/img-1/subject': () => ({ data: oneProduct }),
    'GET /images/recent/generations': () => ({ data: [] }),
    'POST /images/generate-product-shots': () => ({ data: { generationId: 'gen-auto', status: 'queued' } }),
    'GET /generations/gen-auto': () => ({ data: autoGeneration(count, 'complete') }),
  });
  const { queryClient } = renderRoutes(
    [{ path: '/editor', element: <EditorPage /> }],
    [{ pathname: '/editor', state: source }],
  );
  return { calls, socket: fakeSocket(queryClient) };
}

const shotBodies = (calls: ApiCall[]) =>
  calls.filter((c) => c.path === '/images/generate-product-shots').map((c) => c.body as ProductShotRequest);
const generateButton = () => screen.getByRole('button', { name: /^Generat/ });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('EditorPage auto mode', () => {
  it('offers Auto beside Templates and Custom Background, one image for one credit by default', async () => {
    renderEditor(1);
    await screen.findByRole('tab', { name: 'Auto' });
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Templates',
      'Custom Background',
      'Auto',
    ]);
    fireEvent.click(screen.getByRole('tab', { name: 'Auto' }));
    const panel = screen.getByRole('tabpanel');
    expect(panel.id).toBe('panel-auto');
    const counts = within(panel).getAllByRole('radio');
    expect(counts.map((radio) => (radio as HTMLInputElement).value)).toEqual(['1', '2', '3', '4']);
    expect(within(panel).getByRole('radio', { name: '1' })).toHaveProperty('checked', true);
    expect(within(panel).getByText('Cost:').textContent).toBe('Cost: 1 credit');
  });

  it('sends backgroundType auto with the chosen count, shows its cost, and files the shots under Auto with the picked scene', async () => {
    const { calls, socket } = renderEditor(3);
    fireEvent.click(await screen.findByRole('tab', { name: 'Auto' }));
    fireEvent.click(screen.getByRole('radio', { name: '3' }));
    expect(screen.getByText('Cost:').textContent).toBe('Cost: 3 credits');
    await waitFor(() => expect(generateButton().getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(generateButton());

    await waitFor(() => expect(shotBodies(calls)).toHaveLength(1));
    const [body] = shotBodies(calls);
    expect(body).toMatchObject({ imageId: 'img-1', backgroundType: 'auto', count: 3 });
    expect(body).not.toHaveProperty('prompt');

    socket.emit('generation:done', { generationId: 'gen-auto', status: 'complete', error: null });
    expectRenditionOf(await screen.findByAltText('Auto shot of Mug'), '/storage/auto-0.png');
    expect(screen.getByText('Auto result')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Results' })).getAllByRole('button')).toHaveLength(3);

    const history = screen.getByRole('heading', { name: 'Session history' }).parentElement!;
    const entry = within(history).getByRole('button');
    expect(within(entry).getByText('Auto', { selector: 'strong' })).toBeTruthy();
    expect(within(entry).getByText(`Scene: ${scene.name}`)).toBeTruthy();
    expect(within(entry).getByText(scene.prompt)).toBeTruthy();
  });

  it('still asks for one image from the templates and custom tabs', async () => {
    const { calls } = renderEditor(1);
    fireEvent.click(await screen.findByRole('tab', { name: 'Auto' }));
    fireEvent.click(screen.getByRole('radio', { name: '4' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Templates' }));
    await waitFor(() => expect(generateButton().getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(generateButton());
    await waitFor(() => expect(shotBodies(calls)).toHaveLength(1));
    expect(shotBodies(calls)[0]).toMatchObject({ backgroundType: 'lifestyle', count: 1 });
  });
});
