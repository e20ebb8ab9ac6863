import {
  BUY_CREDITS_URL,
  insufficientCreditsMessage,
  OUTLINE_CONFIRM_LABEL,
  OUTLINE_PROMPT,
  TAP_PRODUCT_MESSAGE,
  type GenerationDto,
  type ImageDto,
  type SmartGenerateRequest,
  type SubjectDto,
} from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { InitialEntry } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FINDING_PRODUCT } from '../features/subject/tap-to-pick.js';
import type { SmartUploadState } from '../features/uploads/upload-items.js';
import {
  apiError,
  idempotencyKeys,
  insufficientCredits,
  layOutImage,
  networkFailure,
  stubApi,
  type ApiCall,
} from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { failedSubject, oneProduct, pendingSubject, twoProducts, unsureOutline } from '../test-support/subjects.js';
import { SmartRunPage } from './smart-run.js';
import { SmartUploadPage } from './smart-upload.js';
import { stored } from '../test-support/renditions.js';

const uploaded: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'two.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/two.png'),
  coach: [],
};
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
const accepted = () => ({ data: { generationId: 'gen-1', status: 'queued' } });

function stubSmartApi(subject: SubjectDto, overrides: Record<string, (body: unknown) => unknown> = {}): ApiCall[] {
  return stubApi({
    'POST /images/upload': () => uploaded,
    'GET /images/img-1': () => ({ data: uploaded }),
    'GET /images/img-1/subject': () => ({ data: subject }),
    'POST /images/smart-generate-product-shots': accepted,
    'GET /generations/gen-1': () => ({ data: running }),
    ...overrides,
  });
}

const routes = [
  { path: '/dashboard', element: <h1>Dashboard</h1> },
  { path: '/smart-upload', element: <SmartUploadPage /> },
  { path: '/smart/:generationId', element: <SmartRunPage /> },
];

function renderSmart(state: SmartUploadState, before: InitialEntry[] = []) {
  return renderRoutes(routes, [...before, { pathname: '/smart-upload', state }], { initialIndex: before.length });
}

const smartCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/images/smart-generate-product-shots');
const uploadCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/images/upload');
const fromDashboard: SmartUploadState = { imageId: 'img-1', fileId: 'file-1', name: 'two.png' };
const freshFile = (): SmartUploadState => ({ file: new File(['png'], 'two.png', { type: 'image/png' }) });

beforeEach(() => {
  // jsdom has no object URLs; the page makes its own, since the dashboard revokes the one it passes.
  Object.assign(URL, { createObjectURL: () => 'blob:own', revokeObjectURL: () => undefined });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SmartUploadPage tap step', () => {
  it('uploads, shows the tap step when the subject needs it, and sends the tapped focus in smartGenerate', async () => {
    const calls = stubSmartApi(twoProducts);
    const { router } = renderSmart(freshFile());

    expect(await screen.findByText(TAP_PRODUCT_MESSAGE)).toBeTruthy();
    expect(screen.getByAltText('Your product').getAttribute('src')).toBe('blob:own');
    const generate = screen.getByRole('button', { name: 'Generate Product Shots' }) as HTMLButtonElement;
    expect(generate.disabled).toBe(true);
    expect(smartCalls(calls)).toHaveLength(0);

    // A 1000×500 photo contained in a 400×400 preview: bars of 100 px above and below.
    layOutImage(
      screen.getByAltText('Your product'),
      { left: 0, top: 0, width: 400, height: 400 },
      { width: 1000, height: 500 },
    );
    fireEvent.click(screen.getByAltText('Your product'), { clientX: 300, clientY: 250, detail: 1 });
    expect(generate.disabled).toBe(false);
    fireEvent.click(generate);

    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    const body = smartCalls(calls)[0]!.body as SmartGenerateRequest;
    expect(body).toMatchObject({
      imageId: 'img-1',
      fileId: 'file-1',
      imageUrl: '/storage/two.png',
      styleCount: 4,
      focus: { x: 0.75, y: 0.75 },
    });
    expect(await screen.findByText('Analysing your product')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/smart/gen-1');
  });

  it('starts at once, without focus or an extra click, when the subject is clear (arriving from the dashboard)', async () => {
    const calls = stubSmartApi(oneProduct);
    const { router } = renderSmart(fromDashboard);
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    expect(smartCalls(calls)[0]!.body).toEqual({ imageId: 'img-1', fileId: 'file-1', styleCount: 4 });
    expect(screen.queryByText(TAP_PRODUCT_MESSAGE)).toBeNull();
    expect(uploadCalls(calls)).toHaveLength(0);
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'));
  });

  it('waits while the subject is pending and goes on when the socket reports it', async () => {
    const calls = stubSmartApi(pendingSubject);
    const { queryClient } = renderSmart(fromDashboard);
    expect(await screen.findByText(FINDING_PRODUCT)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Starting…' }) as HTMLButtonElement).disabled).toBe(true);

    fakeSocket(queryClient).emit('image:subject', twoProducts);

    expect(await screen.findByText(TAP_PRODUCT_MESSAGE)).toBeTruthy();
    expect(screen.queryByText(FINDING_PRODUCT)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Object 2 of 2' }), { detail: 0 });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Product Shots' }));
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    expect((smartCalls(calls)[0]!.body as SmartGenerateRequest).focus).toEqual({ x: 0.72, y: 0.5 });
  });

  it('shows an unsure outline and starts nothing until the seller confirms it', async () => {
    const confirmed = {
      ...unsureOutline,
      outline: { ...unsureOutline.outline!, confirmed: true, needsConfirmation: false },
    };
    const calls = stubSmartApi(unsureOutline, { 'POST /images/img-1/outline/confirm': () => ({ data: confirmed }) });
    const { router } = renderSmart(fromDashboard);
    expect(await screen.findByText(OUTLINE_PROMPT)).toBeTruthy();
    expect(screen.getByAltText('Your product as Prodshot cut it out').getAttribute('src')).toBe(
      '/storage/outline.webp',
    );
    const generate = screen.getByRole('button', { name: 'Generate Product Shots' }) as HTMLButtonElement;
    expect(generate.disabled).toBe(true);
    expect(smartCalls(calls)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: OUTLINE_CONFIRM_LABEL }));
    // Confirmed, the clear photo starts as it always did: at once, with no focus (the server keeps the confirmed outline).
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    expect(smartCalls(calls)[0]!.body).toEqual({ imageId: 'img-1', fileId: 'file-1', styleCount: 4 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'));
  });

  it('waits while the seller fixes an unsure outline with taps, then sends them with Generate', async () => {
    const taps = [{ x: 0.25, y: 0.5, keep: false }];
    const fixed = {
      ...unsureOutline,
      outline: { ...unsureOutline.outline!, url: '/storage/outline-fixed.webp', focus: taps, needsConfirmation: false },
    };
    const calls = stubSmartApi(unsureOutline, { 'POST /images/img-1/outline': () => ({ data: fixed }) });
    const { router } = renderSmart(fromDashboard);
    expect(await screen.findByText(OUTLINE_PROMPT)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    const cutout = screen.getByAltText('Your product as Prodshot cut it out');
    layOutImage(cutout, { left: 0, top: 0, width: 400, height: 400 }, { width: 800, height: 800 });
    fireEvent.click(cutout, { clientX: 100, clientY: 200 });
    await waitFor(() => expect(cutout.getAttribute('src')).toBe('/storage/outline-fixed.webp'));
    // One tap is not the end of fixing: nothing starts by itself, however clear the photo.
    const generate = screen.getByRole('button', { name: 'Generate Product Shots' }) as HTMLButtonElement;
    await waitFor(() => expect(generate.disabled).toBe(false));
    expect(smartCalls(calls)).toHaveLength(0);
    fireEvent.click(generate);
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    expect((smartCalls(calls)[0]!.body as SmartGenerateRequest).focus).toEqual(taps);
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'));
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

describe('SmartUploadPage never starts a second run', () => {
  it('clears the router state it starts from, so a reload of that history entry starts nothing', async () => {
    // The upload never answers: the reload comes while the first run is still starting.
    const calls = stubSmartApi(oneProduct, { 'POST /images/upload': () => new Promise(() => undefined) });
    const { router, unmount } = renderSmart(freshFile());
    await waitFor(() => expect(uploadCalls(calls)).toHaveLength(1));
    const restored = router.state.location;
    expect(restored.pathname).toBe('/smart-upload');
    expect(restored.state).toBeNull();

    unmount();
    renderRoutes(routes, [restored]);
    expect(await screen.findByText('Supports JPEG, PNG, WebP (Max 5MB)')).toBeTruthy();
    expect(uploadCalls(calls)).toHaveLength(1);
    expect(smartCalls(calls)).toHaveLength(0);
  });

  it('gives its history entry to /smart/:id: Back leads to the dashboard, Forward to the same run, and nothing starts again', async () => {
    const calls = stubSmartApi(oneProduct);
    const { router } = renderSmart(freshFile(), ['/dashboard']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'));
    expect(await screen.findByText('Analysing your product')).toBeTruthy();

    await router.navigate(-1);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    await router.navigate(1);
    expect(router.state.location.pathname).toBe('/smart/gen-1');
    expect(await screen.findByText('Analysing your product')).toBeTruthy();
    expect(uploadCalls(calls)).toHaveLength(1);
    expect(smartCalls(calls)).toHaveLength(1);
  });
});

describe('SmartUploadPage Idempotency-Key', () => {
  it('sends one key per call: the upload and the start each carry their own', async () => {
    const calls = stubSmartApi(oneProduct);
    const { router } = renderSmart(freshFile());
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'));
    const [uploadKey] = idempotencyKeys(uploadCalls(calls));
    const [startKey] = idempotencyKeys(smartCalls(calls));
    expect(uploadKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(startKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(startKey).not.toBe(uploadKey);
  });

  it('retries a start that got no answer, or a gateway timeout, with the same key', async () => {
    const answers = [networkFailure, () => apiError(504, 'Gateway Timeout'), accepted];
    const calls = stubSmartApi(oneProduct, { 'POST /images/smart-generate-product-shots': () => answers.shift()!() });
    const { router } = renderSmart(fromDashboard);
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'), { timeout: 5000 });
    const keys = idempotencyKeys(smartCalls(calls));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('sends a new key when the seller clicks again after a refused start', async () => {
    const answers = [() => insufficientCredits(4, 0), accepted];
    const calls = stubSmartApi(oneProduct, { 'POST /images/smart-generate-product-shots': () => answers.shift()!() });
    const { router } = renderSmart(fromDashboard);
    // A refusal for credits is not a failed recommendation: no prefix, and the way to credits beside it.
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe(insufficientCreditsMessage(4, 0));
    expect(within(alert).getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe(BUY_CREDITS_URL);
    expect(within(alert).getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
    expect(smartCalls(calls)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Generate Product Shots' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'));
    const [first, second] = idempotencyKeys(smartCalls(calls));
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });
});
