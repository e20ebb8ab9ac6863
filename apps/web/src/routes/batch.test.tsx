import {
  coachWarning,
  OUTLINE_CONFIRM_LABEL,
  OUTLINE_PROMPT,
  TAP_TO_FIND_MESSAGE,
  type BatchDto,
  type GenerationDto,
  type ImageDto,
} from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, layOutImage, stubApi } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { dashboardInput } from '../test-support/dashboard.js';
import { stored } from '../test-support/renditions.js';
import { subscriptionOn } from '../test-support/subscriptions.js';
import { sureOutline, unseenProduct, unsureOutline } from '../test-support/subjects.js';
import { OUTLINES_WAIT } from '../features/batches/batch-draft.js';
import { BatchPage, NewBatchPage } from './batch.js';
import { DashboardPage } from './dashboard.js';

const photo = (name: string) => new File(['jpg'], name, { type: 'image/jpeg' });
const uploaded = (n: number): ImageDto => ({
  _id: `img-${n}`,
  fileId: `file-${n}`,
  name: `shoe-${n}.jpg`,
  productTitle: null,
  createdAt: '2026-11-24T00:00:00.000Z',
  originalImage: stored(`/storage/shoe-${n}.jpg`),
  coach: [],
});
const withCredits = (credits: number) => ({
  ...subscriptionOn('starter'),
  subscriptionCredits: 0,
  addOnCredits: credits,
});

const routes = [
  { path: '/dashboard', element: <DashboardPage /> },
  { path: '/batches/new', element: <NewBatchPage /> },
  { path: '/batches/:batchId', element: <BatchPage /> },
  { path: '/checkout/addon', element: <h1>Buy credits page</h1> },
];

function startDraft(files: File[], api: Parameters<typeof stubApi>[0]) {
  let uploads = 0;
  const calls = stubApi({
    'POST /images/upload': () => uploaded(++uploads),
    'GET /images': () => ({ data: [] }),
    ...api,
  });
  const rendered = renderRoutes(routes, [{ pathname: '/batches/new', state: { files } }]);
  return { calls, ...rendered };
}

beforeEach(() => {
  Object.assign(URL, { createObjectURL: (file: File) => `blob:${file.name}`, revokeObjectURL: () => undefined });
});
afterEach(() => vi.unstubAllGlobals());

describe('the batch draft (/batches/new)', () => {
  it('uploads every photo, shows the total before anything starts, and starts the batch with one confirmation', async () => {
    const { calls, router } = startDraft([photo('a.jpg'), photo('b.jpg'), photo('c.jpg')], {
      'GET /users/subscription': () => withCredits(20),
      'POST /batches': () => ({ data: { batchId: 'batch-1', credits: 9, status: 'queued' } }),
    });
    expect(await screen.findAllByTestId('batch-item')).toHaveLength(3);
    await waitFor(() => expect(calls.filter((c) => c.path === '/images/upload')).toHaveLength(3));
    // Smart with four styles by default: 3 photos × 4.
    expect((await screen.findByTestId('batch-cost')).textContent).toContain('Total: 12 credits');
    fireEvent.change(screen.getByLabelText('Styles per photo'), { target: { value: '3' } });
    expect(screen.getByTestId('batch-cost').textContent).toMatch(/Total: 9 credits.*3 photos.*you have 20 credits/);
    fireEvent.change(screen.getByLabelText('Product title for photo 2'), { target: { value: 'Red boot' } });

    const confirm = await screen.findByRole('button', { name: 'Confirm and start · 9 credits' });
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirm);
    await waitFor(() => expect(router.state.location.pathname).toBe('/batches/batch-1'));
    const [start] = calls.filter((c) => c.method === 'POST' && c.path === '/batches');
    expect(start!.body).toEqual({
      items: [{ imageId: 'img-1' }, { imageId: 'img-2', productTitle: 'Red boot' }, { imageId: 'img-3' }],
      choice: { mode: 'smart', styleCount: 3 },
    });
    expect(start!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("shows the photo coach's tips under the photo they are about, and still lets the batch start", async () => {
    const blurry = {
      code: 'blurry' as const,
      message: 'This photo looks blurry.',
      advice: 'Hold the phone steady and tap the product to focus.',
    };
    let uploads = 0;
    startDraft([photo('a.jpg'), photo('b.jpg')], {
      'GET /users/subscription': () => withCredits(20),
      'POST /images/upload': () => ({ ...uploaded(++uploads), coach: uploads === 2 ? [blurry] : [] }),
    });
    const items = await screen.findAllByTestId('batch-item');
    await waitFor(() => expect(items[1]!.textContent).toContain('Hold the phone steady'));
    expect(items[0]!.textContent).not.toContain('tip');
    const confirm = await screen.findByRole('button', { name: /Confirm and start/ });
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
  });

  it('gives each photo one line of tips, the advice a tap away, not a notice each', async () => {
    const tips = [coachWarning('low_resolution'), coachWarning('product_cut_off', 'unknown', ['left'])];
    startDraft([photo('a.jpg'), photo('b.jpg'), photo('c.jpg')], {
      'GET /users/subscription': () => withCredits(20),
      'GET /images/img-1/subject': () => ({ data: { ...sureOutline, imageId: 'img-1', coach: tips } }),
      'GET /images/img-2/subject': () => ({ data: { ...sureOutline, imageId: 'img-2', coach: tips } }),
      'GET /images/img-3/subject': () => ({ data: { ...sureOutline, imageId: 'img-3', coach: tips } }),
    });
    const items = await screen.findAllByTestId('batch-item');
    await waitFor(() =>
      expect(items.every((item) => item.textContent!.includes('cut off at the left edge'))).toBe(true),
    );
    for (const item of items) {
      const lines = item.querySelectorAll('summary');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.textContent).toBe(`2 tips: ${tips[0]!.message} The product is cut off at the left edge.`);
      expect(within(item).getByText(tips[1]!.advice)).toBeTruthy();
    }
    expect(screen.queryAllByRole('heading', { name: /before you spend credits/ })).toHaveLength(0);
    expect(screen.queryByText(/These are tips, not blocks/)).toBeNull();
  });

  it("shows each photo's outline, and holds the batch until an unsure one is confirmed", async () => {
    const confirmed = {
      ...unsureOutline,
      imageId: 'img-2',
      outline: { ...unsureOutline.outline!, confirmed: true, needsConfirmation: false },
    };
    const { calls } = startDraft([photo('a.jpg'), photo('b.jpg')], {
      'GET /users/subscription': () => withCredits(20),
      'GET /images/img-1/subject': () => ({ data: { ...sureOutline, imageId: 'img-1' } }),
      'GET /images/img-2/subject': () => ({ data: { ...unsureOutline, imageId: 'img-2' } }),
      'POST /images/img-2/outline/confirm': () => ({ data: confirmed }),
    });
    const items = await screen.findAllByTestId('batch-item');
    await waitFor(() => expect(within(items[1]!).getByText(OUTLINE_PROMPT)).toBeTruthy());
    expect(within(items[0]!).getByText(OUTLINE_PROMPT)).toBeTruthy();
    expect(within(items[0]!).queryByRole('button', { name: OUTLINE_CONFIRM_LABEL })).toBeNull();
    const start = screen.getByRole('button', { name: /Confirm and start/ }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByText(OUTLINES_WAIT)).toBeTruthy();
    fireEvent.click(within(items[1]!).getByRole('button', { name: OUTLINE_CONFIRM_LABEL }));
    await waitFor(() => expect(start.disabled).toBe(false));
    expect(calls.filter((c) => c.path === '/batches')).toHaveLength(0);
  });

  it('lets the seller tap their product in a photo the engine saw none in, and shows its outline once found', async () => {
    const tap = { x: 0.25, y: 0.5, keep: true };
    const { calls } = startDraft([photo('a.jpg'), photo('sunnies.jpg')], {
      'GET /users/subscription': () => withCredits(20),
      'GET /images/img-1/subject': () => ({ data: { ...sureOutline, imageId: 'img-1' } }),
      'GET /images/img-2/subject': () => ({ data: { ...unseenProduct, imageId: 'img-2' } }),
      'POST /images/img-2/outline': () => ({
        data: { ...sureOutline, imageId: 'img-2', outline: { ...sureOutline.outline!, focus: [tap] } },
      }),
    });
    const items = await screen.findAllByTestId('batch-item');
    await waitFor(() => expect(within(items[1]!).getByText(TAP_TO_FIND_MESSAGE)).toBeTruthy());
    expect(within(items[0]!).queryByText(TAP_TO_FIND_MESSAGE)).toBeNull();

    const img = within(items[1]!).getByAltText('sunnies.jpg: tap your product');
    layOutImage(img, { left: 0, top: 100, width: 390, height: 390 }, { width: 1200, height: 600 });
    fireEvent.click(img, { clientX: 97.5, clientY: 295, detail: 1 });

    await waitFor(() => expect(within(items[1]!).getByText(OUTLINE_PROMPT)).toBeTruthy());
    expect(calls.find((c) => c.path === '/images/img-2/outline')?.body).toEqual({ focus: [tap] });
    expect(within(items[1]!).queryByText(TAP_TO_FIND_MESSAGE)).toBeNull();
    expect(calls.filter((c) => c.path === '/batches')).toHaveLength(0);
  });

  it('prices a template or a prompt by its count, and needs the prompt written', async () => {
    startDraft([photo('a.jpg'), photo('b.jpg')], { 'GET /users/subscription': () => withCredits(20) });
    await screen.findAllByTestId('batch-item');
    fireEvent.click(screen.getByRole('radio', { name: /One template/ }));
    fireEvent.change(screen.getByLabelText('Shots per photo'), { target: { value: '3' } });
    expect(screen.getByTestId('batch-cost').textContent).toContain('Total: 6 credits');
    fireEvent.click(screen.getByRole('radio', { name: /Describe a scene/ }));
    expect(screen.getByText('Describe the scene first.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Scene'), { target: { value: 'On a beach' } });
    await waitFor(() => expect(screen.queryByText('Describe the scene first.')).toBeNull());
  });

  it("names the shortfall with a 'Buy credits' link, and starts nothing, when the balance is short", async () => {
    const { calls } = startDraft([photo('a.jpg'), photo('b.jpg')], { 'GET /users/subscription': () => withCredits(5) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('You need 3 more credits for this batch.');
    expect(within(alert).getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/checkout/addon');
    expect((screen.getByRole('button', { name: /Confirm and start/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.filter((c) => c.path === '/batches')).toEqual([]);
  });

  it("shows the server's 402 with the 'Buy credits' link when credits went elsewhere meanwhile", async () => {
    startDraft([photo('a.jpg')], {
      'GET /users/subscription': () => withCredits(20),
      'POST /batches': () =>
        apiError(
          402,
          'Not enough credits: this needs 4 and you have 2. Buy a plan or add-on credits to continue.',
          'insufficient_credits',
        ),
    });
    const confirm = await screen.findByRole('button', { name: 'Confirm and start · 4 credits' });
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirm);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Not enough credits: this needs 4 and you have 2.');
    expect(within(alert).getByRole('link', { name: 'Buy credits' })).toBeTruthy();
  });

  it('lets a photo that failed to upload be retried or removed before confirming', async () => {
    let attempts = 0;
    startDraft([photo('a.jpg'), photo('b.jpg')], {
      'GET /users/subscription': () => withCredits(20),
      'POST /images/upload': () =>
        ++attempts === 2
          ? apiError(400, 'This file is not an image we can read', 'unsupported_format')
          : uploaded(attempts),
    });
    expect(await screen.findByText('This file is not an image we can read')).toBeTruthy();
    expect(screen.getByText('Retry or remove the photos that failed to upload.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 2' }));
    await waitFor(() => expect(screen.getAllByTestId('batch-item')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Confirm and start · 4 credits' })).toBeTruthy();
  });
});

describe('several photos on the dashboard', () => {
  const dashboard = () => {
    stubApi({
      'GET /images': () => ({ data: [] }),
      'GET /images/recent/generations': () => ({ data: [] }),
      'POST /images/upload': () => uploaded(1),
      'GET /users/subscription': () => withCredits(20),
    });
    return renderRoutes(routes, ['/dashboard']);
  };

  it('takes up to 20 from one pick (camera roll included: multiple, no capture) into a batch draft', async () => {
    const { router } = dashboard();
    const input = await dashboardInput();
    expect(input.multiple).toBe(true);
    expect(input.hasAttribute('capture')).toBe(false);
    fireEvent.change(input, { target: { files: [photo('a.jpg'), photo('b.jpg'), photo('c.jpg')] } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/batches/new'));
    expect(await screen.findAllByTestId('batch-item')).toHaveLength(3);
  });

  it('refuses 21 with a clear message and opens no batch', async () => {
    const { router } = dashboard();
    const input = await dashboardInput();
    fireEvent.change(input, { target: { files: Array.from({ length: 21 }, (_, n) => photo(`${n}.jpg`)) } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'A batch takes up to 20 photos at once; you picked 21. Pick 20 or fewer.',
    );
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

describe('a started batch (/batches/:id)', () => {
  const output = (index: number, name: string) => ({
    index,
    name,
    status: 'queued' as const,
    progress: 0,
    url: null,
    thumbnailUrl: null,
    previewUrl: null,
    error: null,
  });
  const batch: BatchDto = {
    id: 'batch-1',
    choice: { mode: 'template', backgroundType: 'marble', count: 2 },
    credits: 4,
    status: 'running',
    createdAt: '2026-11-24T00:00:00.000Z',
    archiveUrl: null,
    archiveBytes: null,
    originalArchiveBytes: null,
    items: [1, 2].map((n) => ({
      position: n - 1,
      generationId: `gen-${n}`,
      imageId: `img-${n}`,
      thumbnailUrl: `/storage/shoe-${n}-thumb.webp`,
      productTitle: n === 1 ? 'Red boot' : 'product',
      status: 'queued' as const,
      stage: null,
      error: null,
      outputs: [output(0, 'Marble'), output(1, 'Marble')],
    })),
  };
  const generation = (n: number, done: boolean): GenerationDto => ({
    id: `gen-${n}`,
    kind: 'manual',
    status: done ? 'complete' : 'running',
    stage: null,
    imageId: `img-${n}`,
    productInfo: null,
    error: null,
    unsupportedProduct: false,
    styles: [0, 1].map((index) => ({
      ...output(index, 'Marble'),
      prompt: null,
      ...(done ? { status: 'complete' as const, progress: 100, ...stored(`/storage/out-${n}-${index}.png`) } : {}),
    })),
    createdAt: '2026-11-24T00:00:00.000Z',
  });

  it('resumes by URL and follows every photo live; once a shot is done, Download all follows the signed zip link', async () => {
    let row = batch;
    let first = generation(1, false);
    stubApi({
      'GET /batches/batch-1': () => ({ data: row }),
      'GET /generations/gen-1': () => ({ data: first }),
      'GET /generations/gen-2': () => ({ data: generation(2, false) }),
    });
    const { queryClient } = renderRoutes(routes, ['/batches/batch-1']);
    expect(await screen.findByRole('heading', { name: 'Batch of 2 photos' })).toBeTruthy();
    expect(screen.getAllByTestId('batch-item')).toHaveLength(2);
    expect(screen.getByText('Red boot')).toBeTruthy();
    expect(screen.getByText('Photo 2')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Download all' }) as HTMLButtonElement).disabled).toBe(true);

    const socket = fakeSocket(queryClient);
    await waitFor(() => expect(screen.getAllByText('Marble: Waiting').length).toBeGreaterThan(0));
    socket.emit('generation:style', { generationId: 'gen-1', index: 0, status: 'progress', progress: 50 });
    expect(await screen.findByText('Marble: 50%')).toBeTruthy();
    first = generation(1, true);
    row = {
      ...batch,
      archiveUrl: '/api/batches/batch-1/archive?expires=99999999999&signature=abc',
      items: [{ ...batch.items[0]!, status: 'complete' }, batch.items[1]!],
    };
    socket.emit('generation:style', {
      generationId: 'gen-1',
      index: 0,
      status: 'complete',
      ...stored('/storage/out-1-0.png'),
    });
    socket.emit('generation:style', {
      generationId: 'gen-1',
      index: 1,
      status: 'complete',
      ...stored('/storage/out-1-1.png'),
    });
    socket.emit('generation:done', { generationId: 'gen-1', status: 'complete', error: null });
    const link = await screen.findByRole('link', { name: 'Download all finished so far' });
    expect(link.getAttribute('href')).toBe('/api/batches/batch-1/archive?expires=99999999999&signature=abc');
    expect(link.hasAttribute('download')).toBe(true);
    expect(screen.getByText('2 of 2 done')).toBeTruthy();
  });

  it("names the zip's size on Download all and offers the original PNGs as a second zip with theirs", async () => {
    const archiveUrl = '/api/batches/batch-1/archive?expires=99999999999&signature=abc';
    const settled = {
      ...batch,
      status: 'complete' as const,
      archiveUrl,
      archiveBytes: 12_400_000,
      originalArchiveBytes: 155_000_000,
      items: batch.items.map((item) => ({ ...item, status: 'complete' as const })),
    };
    stubApi({
      'GET /batches/batch-1': () => ({ data: settled }),
      'GET /generations/gen-1': () => ({ data: generation(1, true) }),
      'GET /generations/gen-2': () => ({ data: generation(2, true) }),
    });
    renderRoutes(routes, ['/batches/batch-1']);
    const jpegs = await screen.findByRole('link', { name: 'Download all · 12 MB' });
    expect(jpegs.getAttribute('href')).toBe(archiveUrl);
    const originals = screen.getByRole('link', { name: 'Original PNGs · 148 MB' });
    expect(originals.getAttribute('href')).toBe(`${archiveUrl}&file=original`);
    expect(originals.hasAttribute('download')).toBe(true);
  });

  it("says a batch that is not the seller's was not found", async () => {
    stubApi({ 'GET /batches/someone-elses': () => apiError(404, 'Batch not found', 'batch_not_found') });
    renderRoutes(routes, ['/batches/someone-elses']);
    expect(await screen.findByRole('heading', { name: 'Batch not found' })).toBeTruthy();
  });
});
