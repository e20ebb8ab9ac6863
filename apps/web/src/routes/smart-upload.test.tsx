import { TAP_PRODUCT_MESSAGE, type GenerationDto, type ImageDto, type ServerToClientEvents, type SmartGenerateRequest, type SubjectDto } from '@prodshot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wireSocketToCache } from '../features/realtime/socket-provider.js';
import { FINDING_PRODUCT } from '../features/subject/tap-to-pick.js';
import type { SmartUploadState } from '../features/uploads/upload-items.js';
import { layOutImage, stubApi, type ApiCall } from '../test-support/fake-api.js';
import { failedSubject, oneProduct, pendingSubject, twoProducts } from '../test-support/subjects.js';
import { SmartUploadPage } from './smart-upload.js';

const uploaded: ImageDto = { _id: 'img-1', fileId: 'file-1', name: 'two.png', createdAt: '2025-01-01T00:00:00.000Z', originalImage: { url: '/storage/two.png' } };
const running: GenerationDto = {
  id: 'gen-1',
  kind: 'smart',
  status: 'running',
  stage: 'analysing',
  imageId: 'img-1',
  productInfo: null,
  error: null,
  unsupportedProduct: false,
  styles: [],
  createdAt: '2025-01-01T00:00:00.000Z',
};

function stubSmartApi(subject: SubjectDto): ApiCall[] {
  return stubApi({
    'POST /images/upload': () => uploaded,
    'GET /images/img-1/subject': () => ({ data: subject }),
    'POST /images/smart-generate-product-shots': () => ({ data: { generationId: 'gen-1', status: 'queued' } }),
    'GET /generations/gen-1': () => ({ data: running }),
  });
}

function renderSmart(state: SmartUploadState) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/smart-upload', element: <SmartUploadPage /> },
      { path: '/smart-results', element: <h1>Results</h1> },
    ],
    { initialEntries: [{ pathname: '/smart-upload', state }] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return queryClient;
}

const smartCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/images/smart-generate-product-shots');
const fromDashboard: SmartUploadState = { imageId: 'img-1', fileId: 'file-1', previewUrl: '/storage/two.png', name: 'two.png' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SmartUploadPage tap step', () => {
  it('uploads, shows the tap step when the subject needs it, and sends the tapped focus in smartGenerate', async () => {
    const calls = stubSmartApi(twoProducts);
    // jsdom has no object URLs; the page makes its own, since the dashboard revokes the one it passes.
    const revoked: string[] = [];
    Object.assign(URL, { createObjectURL: () => 'blob:own', revokeObjectURL: (url: string) => revoked.push(url) });
    const file = new File(['png'], 'two.png', { type: 'image/png' });
    renderSmart({ file, previewUrl: 'blob:revoked-by-the-dashboard' });

    expect(await screen.findByText(TAP_PRODUCT_MESSAGE)).toBeTruthy();
    expect(screen.getByAltText('Your product').getAttribute('src')).toBe('blob:own');
    const generate = screen.getByRole('button', { name: 'Generate Product Shots' }) as HTMLButtonElement;
    expect(generate.disabled).toBe(true);
    expect(smartCalls(calls)).toHaveLength(0);

    // A 1000×500 photo contained in a 400×400 preview: bars of 100 px above and below.
    layOutImage(screen.getByAltText('Your product'), { left: 0, top: 0, width: 400, height: 400 }, { width: 1000, height: 500 });
    fireEvent.click(screen.getByAltText('Your product'), { clientX: 300, clientY: 250, detail: 1 });
    expect(generate.disabled).toBe(false);
    fireEvent.click(generate);

    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    const body = smartCalls(calls)[0]!.body as SmartGenerateRequest;
    expect(body).toMatchObject({ imageId: 'img-1', fileId: 'file-1', imageUrl: '/storage/two.png', styleCount: 4, focus: { x: 0.75, y: 0.75 } });
    expect(await screen.findByText('Analysing your product')).toBeTruthy();
  });

  it('starts at once, without focus or an extra click, when the subject is clear (arriving from the dashboard)', async () => {
    const calls = stubSmartApi(oneProduct);
    renderSmart(fromDashboard);
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    expect(smartCalls(calls)[0]!.body).toEqual({ imageId: 'img-1', fileId: 'file-1', styleCount: 4 });
    expect(screen.queryByText(TAP_PRODUCT_MESSAGE)).toBeNull();
    expect(calls.some((c) => c.path === '/images/upload')).toBe(false);
  });

  it('waits while the subject is pending and goes on when the socket reports it', async () => {
    const calls = stubSmartApi(pendingSubject);
    const queryClient = renderSmart(fromDashboard);
    expect(await screen.findByText(FINDING_PRODUCT)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Starting…' }) as HTMLButtonElement).disabled).toBe(true);

    const handlers = new Map<string, (event: unknown) => void>();
    const socket = { on: (name: string, handler: (event: unknown) => void) => handlers.set(name, handler), io: { on: () => undefined } };
    wireSocketToCache(socket as unknown as Parameters<typeof wireSocketToCache>[0], queryClient);
    const event: Parameters<ServerToClientEvents['image:subject']>[0] = { ...twoProducts, at: Date.now() };
    act(() => handlers.get('image:subject')!(event));

    expect(await screen.findByText(TAP_PRODUCT_MESSAGE)).toBeTruthy();
    expect(screen.queryByText(FINDING_PRODUCT)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Object 2 of 2' }), { detail: 0 });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Product Shots' }));
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    expect((smartCalls(calls)[0]!.body as SmartGenerateRequest).focus).toEqual({ x: 0.72, y: 0.5 });
  });

  it("shows a failed subject's error and starts nothing", async () => {
    const calls = stubSmartApi(failedSubject);
    renderSmart(fromDashboard);
    expect((await screen.findByRole('alert')).textContent).toBe(failedSubject.error);
    expect(screen.queryByRole('button', { name: /Generate Product Shots|Starting/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose another image' })).toBeTruthy();
    expect(smartCalls(calls)).toHaveLength(0);
  });
});
