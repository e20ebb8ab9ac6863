import type { ImageDto } from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idempotencyKeys, networkFailure, stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { dashboardInput } from '../test-support/dashboard.js';
import { subscriptionOn } from '../test-support/subscriptions.js';
import { DashboardPage } from './dashboard.js';
import { expectRenditionOf, stored as storedFile } from '../test-support/renditions.js';

const stored: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'mug.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: storedFile('/storage/mug.png'),
  coach: [],
};

beforeEach(() => {
  Object.assign(URL, { createObjectURL: () => 'blob:mug', revokeObjectURL: () => undefined });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DashboardPage manual path', () => {
  it('sends the upload again with the same Idempotency-Key when the first got no answer', async () => {
    const answers = [networkFailure, () => stored];
    const calls = stubApi({
      'GET /images': () => ({ data: [] }),
      'GET /images/recent/generations': () => ({ data: [] }),
      'POST /images/upload': () => answers.shift()!(),
    });
    const { router } = renderRoutes(
      [
        { path: '/dashboard', element: <DashboardPage /> },
        { path: '/editor', element: <h1>Editor</h1> },
      ],
      ['/dashboard'],
    );
    const input = await dashboardInput();
    fireEvent.change(input, { target: { files: [new File(['png'], 'mug.png', { type: 'image/png' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Manual Design' }));

    expect(await screen.findByRole('heading', { name: 'Editor' }, { timeout: 3000 })).toBeTruthy();
    const keys = idempotencyKeys(calls.filter((c) => c.path === '/images/upload'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(router.state.location.state).toMatchObject({ imageId: 'img-1', fileId: 'file-1' });
  });
});

describe('DashboardPage focus', () => {
  it('keeps focus on the chosen image once the drop zone gives way to it, and back on the drop zone when it is put aside', async () => {
    stubApi({ 'GET /images': () => ({ data: [] }), 'GET /images/recent/generations': () => ({ data: [] }) });
    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], ['/dashboard']);
    const input = await dashboardInput();
    input.focus();
    fireEvent.change(input, { target: { files: [new File(['png'], 'mug.png', { type: 'image/png' })] } });
    const selected = await screen.findByRole('group', { name: 'Selected image' });
    await waitFor(() => expect(document.activeElement).toBe(selected));
    fireEvent.click(screen.getByRole('button', { name: 'Choose another image' }));
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById('image-input')));
  });

  it("offers 'Upload your first photo' to a seller with no uploads, which opens the file picker", async () => {
    stubApi({ 'GET /images': () => ({ data: [] }), 'GET /images/recent/generations': () => ({ data: [] }) });
    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], ['/dashboard']);
    const picker = vi.fn();
    (await dashboardInput()).addEventListener('click', picker);
    fireEvent.click(await screen.findByRole('button', { name: 'Upload your first photo' }));
    expect(picker).toHaveBeenCalledTimes(1);
  });

  it('shows the uploads by their renditions', async () => {
    stubApi({ 'GET /images': () => ({ data: [stored] }), 'GET /images/recent/generations': () => ({ data: [] }) });
    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], ['/dashboard']);
    expectRenditionOf(await screen.findByAltText('mug.png'), '/storage/mug.png');
  });
});

describe('DashboardPage on a phone and for an account with nothing yet', () => {
  const lists = { 'GET /images': () => ({ data: [] }), 'GET /images/recent/generations': () => ({ data: [] }) };

  it('tells an account with no plan and no credits to pick a plan, with the way to /pricing, and says nothing to one with credits', async () => {
    stubApi({ ...lists, 'GET /users/subscription': () => ({ ...subscriptionOn('none'), addOnCredits: 0 }) });
    const first = renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], ['/dashboard']);
    const banner = await screen.findByRole('note');
    expect(banner.textContent).toContain('Pick a plan to start.');
    expect(within(banner).getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
    first.unmount();

    stubApi({ ...lists, 'GET /users/subscription': () => subscriptionOn('starter') });
    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], ['/dashboard']);
    await dashboardInput();
    expect(screen.queryByText(/Pick a plan to start/)).toBeNull();
  });

  it("hides 'Take Photo' once a photo is chosen and brings Continue into view", async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 768px)',
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const scrolled: Element[] = [];
    // jsdom lays nothing out and has no scrollIntoView: record what the page asks to bring into view.
    Object.defineProperty(Element.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: Element) {
        scrolled.push(this);
      },
    });
    stubApi(lists);
    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], ['/dashboard']);
    const input = await dashboardInput();
    expect(screen.getByRole('button', { name: 'Take Photo' })).toBeTruthy();

    fireEvent.change(input, { target: { files: [new File(['png'], 'mug.png', { type: 'image/png' })] } });
    const smart = await screen.findByRole('button', { name: 'Continue with Smart Upload' });
    expect(screen.queryByRole('button', { name: 'Take Photo' })).toBeNull();
    await waitFor(() => expect(scrolled.some((element) => element.contains(smart))).toBe(true));
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });
});
