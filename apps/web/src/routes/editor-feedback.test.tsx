import type { SubscriptionResponse } from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubApi } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { oneProduct } from '../test-support/subjects.js';
import { completedShot, editorSource, editorUpload, queuedShot } from '../test-support/editor-fixtures.js';
import { EditorPage } from './editor.js';

const source = editorSource;
const upload = editorUpload('/storage/mug.png');
const queued = queuedShot('Marble');
const done = completedShot(queued, '/storage/marble.png');
const plan = (effectivePlan: SubscriptionResponse['effectivePlan']): SubscriptionResponse => ({
  subscription: {
    plan: effectivePlan,
    status: effectivePlan === 'none' ? 'none' : 'active',
    startDate: null,
    endDate: null,
    pendingPlan: null,
    cancelAtPeriodEnd: false,
  },
  subscriptionCredits: 0,
  addOnCredits: 0,
  currentPlan: effectivePlan,
  isActive: effectivePlan !== 'none',
  effectivePlan,
});
const noCredits = () => apiError(402, 'Not enough credits: this needs 1 and you have 0.', 'insufficient_credits');

function renderEditor(routes: Record<string, (body: unknown) => unknown> = {}) {
  const calls = stubApi({
    'GET /images/img-1': () => ({ data: upload }),
    'GET /images/img-1/subject': () => ({ data: oneProduct }),
    'GET /images/recent/generations': () => ({ data: [] }),
    'GET /users/subscription': () => plan('starter'),
    'POST /images/generate-product-shots': () => ({ data: { generationId: 'gen-1', status: 'queued' } }),
    'GET /generations/gen-1': () => ({ data: queued }),
    ...routes,
  });
  const { queryClient } = renderRoutes(
    [{ path: '/editor', element: <EditorPage /> }],
    [{ pathname: '/editor', state: source }],
  );
  return { calls, socket: fakeSocket(queryClient) };
}

const generate = () => screen.getByRole('button', { name: /^Generat/ });
async function clickGenerate() {
  await waitFor(() => expect(generate().getAttribute('aria-disabled')).toBe('false'));
  fireEvent.click(generate());
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('EditorPage generate bar', () => {
  it('carries Generate with what it asks for and its cost, and the preview in small', async () => {
    renderEditor();
    const bar = await screen.findByTestId('generate-bar');
    await waitFor(() => expect(within(bar).getByText('Lifestyle · 1 credit')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: /^Marble/ }));
    fireEvent.click(screen.getByRole('radio', { name: '3' }));
    expect(within(bar).getByText('Marble · 3 credits')).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Generate' })).toBe(generate());
    expect(
      within(bar).getByRole('button', { name: 'Show the preview' }).querySelector('img')?.getAttribute('src'),
    ).toBe(upload.originalImage.previewUrl);
  }, 15_000);
});

describe('EditorPage when a shot lands', () => {
  it("says 'Marble shot ready' in a toast whose 'View shot' brings the preview into sight", async () => {
    let row = queued;
    const { socket } = renderEditor({ 'GET /generations/gen-1': () => ({ data: row }) });
    await screen.findByTestId('generate-bar');
    fireEvent.click(screen.getByRole('button', { name: /^Marble/ }));
    await clickGenerate();
    await waitFor(() => expect(generate().textContent).toBe('Generating…'));
    expect(screen.queryByText('Marble shot ready')).toBeNull();
    row = done;
    socket.emit('generation:done', { generationId: 'gen-1', status: 'complete', error: null });

    const toast = (await screen.findByText('Marble shot ready')).closest('[role="status"]') as HTMLElement;
    const stage = screen.getByRole('region', { name: 'Preview' });
    const scrolled = vi.fn();
    stage.scrollIntoView = scrolled;
    fireEvent.click(within(toast).getByRole('button', { name: 'View shot' }));
    expect(scrolled).toHaveBeenCalled();
    expect(document.activeElement).toBe(stage);
    expect(within(stage).getByAltText('Marble shot of Mug')).toBeTruthy();
    expect(screen.queryByText('Marble shot ready')).toBeNull();
    // The bar's small preview is the new shot too.
    expect(screen.getByRole('button', { name: 'Show the preview' }).querySelector('img')?.getAttribute('src')).toBe(
      done.styles[0]!.thumbnailUrl,
    );
  }, 15_000);
});

describe('EditorPage refusals', () => {
  it("shows a 402 as it is, with 'Buy credits', to a seller on a plan", async () => {
    renderEditor({ 'POST /images/generate-product-shots': noCredits });
    await clickGenerate();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Not enough credits: this needs 1 and you have 0\./);
    expect(within(alert).getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/checkout/addon');
    expect(within(screen.getByTestId('generate-bar')).getByRole('alert')).toBe(alert);
  });

  it("offers 'Pick a plan' instead to a seller with no plan", async () => {
    renderEditor({ 'POST /images/generate-product-shots': noCredits, 'GET /users/subscription': () => plan('none') });
    await clickGenerate();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('link', { name: 'Pick a plan' }).getAttribute('href')).toBe('/pricing');
    expect(within(alert).queryByRole('link', { name: 'Buy credits' })).toBeNull();
  });
});
