import {
  OUTLINE_CONFIRM_LABEL,
  OUTLINE_PROMPT,
  TAP_PRODUCT_MESSAGE,
  type GenerationDto,
  type ProductShotRequest,
  type SubjectDto,
} from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { idempotencyKeys, layOutImage, networkFailure, stubApi, type ApiCall } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { failedSubject, oneProduct, pendingSubject, twoProducts, unsureOutline } from '../test-support/subjects.js';
import { completedShot, editorSource, editorUpload, queuedShot } from '../test-support/editor-fixtures.js';
import { EditorPage } from './editor.js';
import { expectRenditionOf, stored } from '../test-support/renditions.js';

const source = editorSource;
const upload = editorUpload('/storage/two.png');
const queued = queuedShot('Lifestyle');
const shotDone = completedShot(queued, '/storage/out.png');
const accepted = () => ({ data: { generationId: 'gen-1', status: 'queued' } });

function renderEditor(subject: SubjectDto, routes: Record<string, (body: unknown) => unknown> = {}) {
  const calls = stubApi({
    'GET /images/img-1': () => ({ data: upload }),
    'GET /images/img-1/subject': () => ({ data: subject }),
    'GET /images/recent/generations': () => ({ data: [] }),
    'POST /images/generate-product-shots': accepted,
    'GET /generations/gen-1': () => ({ data: queued }),
    ...routes,
  });
  const { queryClient } = renderRoutes(
    [{ path: '/editor', element: <EditorPage /> }],
    [{ pathname: '/editor', state: source }],
  );
  return { calls, socket: fakeSocket(queryClient) };
}

const shotCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/images/generate-product-shots');
const generateButton = () => screen.getByRole('button', { name: /^Generat/ });
/** Generate stays focusable when it cannot act: aria-disabled, not disabled. */
const generateBlocked = () => generateButton().getAttribute('aria-disabled') === 'true';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('EditorPage tap step', () => {
  it('disables Generate with the tap message until the product is tapped, then sends the focus', async () => {
    const { calls } = renderEditor(twoProducts);
    await waitFor(() => expect(generateBlocked()).toBe(true));
    // Over the preview, and beside the disabled button that it explains.
    expect(screen.getAllByText(TAP_PRODUCT_MESSAGE)).toHaveLength(2);
    const reason = document.getElementById(generateButton().getAttribute('aria-describedby')!);
    expect(reason?.textContent).toBe(TAP_PRODUCT_MESSAGE);

    const photo = screen.getByAltText('Original photo of Mug');
    layOutImage(photo, { left: 0, top: 0, width: 500, height: 500 }, { width: 1000, height: 1000 });
    fireEvent.click(photo, { clientX: 125, clientY: 250, detail: 1 });
    expect(generateBlocked()).toBe(false);
    expect(generateButton().getAttribute('aria-describedby')).toBeNull();
    expect(screen.getByTestId('tap-marker').style.left).toBe('25%');

    fireEvent.click(generateButton());
    await waitFor(() => expect(shotCalls(calls)).toHaveLength(1));
    expect(shotCalls(calls)[0]!.body as ProductShotRequest).toMatchObject({
      imageId: 'img-1',
      backgroundType: 'lifestyle',
      count: 1,
      focus: { x: 0.25, y: 0.5 },
    });
  });

  it.each([
    ['clear', oneProduct],
    ['still pending', pendingSubject],
  ])('generates at once and without focus when the subject is %s', async (_name, subject) => {
    const { calls } = renderEditor(subject);
    await waitFor(() => expect(calls.some((c) => c.path === '/images/img-1/subject')).toBe(true));
    expect(screen.queryByText(TAP_PRODUCT_MESSAGE)).toBeNull();
    fireEvent.click(generateButton());
    await waitFor(() => expect(shotCalls(calls)).toHaveLength(1));
    expect(shotCalls(calls)[0]!.body).not.toHaveProperty('focus');
  });

  it('shows the outline and blocks Generate on an unsure one until the seller confirms it', async () => {
    const confirmed = {
      ...unsureOutline,
      outline: { ...unsureOutline.outline!, confirmed: true, needsConfirmation: false },
    };
    const { calls } = renderEditor(unsureOutline, {
      'POST /images/img-1/outline/confirm': () => ({ data: confirmed }),
    });
    expect(await screen.findByText(OUTLINE_PROMPT)).toBeTruthy();
    await waitFor(() => expect(generateBlocked()).toBe(true));
    fireEvent.click(generateButton());
    expect(shotCalls(calls)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: OUTLINE_CONFIRM_LABEL }));
    await waitFor(() => expect(generateBlocked()).toBe(false));
    fireEvent.click(generateButton());
    await waitFor(() => expect(shotCalls(calls)).toHaveLength(1));
    expect(shotCalls(calls)[0]!.body).not.toHaveProperty('focus');
  });

  it('sends the taps the seller fixed the outline with as the shot’s focus', async () => {
    const taps = [{ x: 0.25, y: 0.5, keep: false }];
    const fixed = {
      ...unsureOutline,
      outline: { ...unsureOutline.outline!, url: '/storage/outline-fixed.webp', focus: taps, needsConfirmation: false },
    };
    const { calls } = renderEditor(unsureOutline, { 'POST /images/img-1/outline': () => ({ data: fixed }) });
    expect(await screen.findByText(OUTLINE_PROMPT)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    const cutout = screen.getByAltText('Your product as Prodshot cut it out');
    layOutImage(cutout, { left: 0, top: 0, width: 400, height: 400 }, { width: 800, height: 800 });
    fireEvent.click(cutout, { clientX: 100, clientY: 200 });
    await waitFor(() => expect(generateBlocked()).toBe(false));
    fireEvent.click(generateButton());
    await waitFor(() => expect(shotCalls(calls)).toHaveLength(1));
    expect((shotCalls(calls)[0]!.body as ProductShotRequest).focus).toEqual(taps);
  });

  it("shows a failed subject's error and offers no generation", async () => {
    const { calls } = renderEditor(failedSubject);
    expect((await screen.findByRole('alert')).textContent).toBe(failedSubject.error);
    expect(generateBlocked()).toBe(true);
    fireEvent.click(generateButton());
    expect(shotCalls(calls)).toHaveLength(0);
  });
});

describe('EditorPage manual shots', () => {
  it('asks for an answer at once (Prefer: respond-async) and shows the shot the socket reports', async () => {
    let row = queued;
    const { calls, socket } = renderEditor(oneProduct, { 'GET /generations/gen-1': () => ({ data: row }) });
    await waitFor(() => expect(generateBlocked()).toBe(false));
    fireEvent.click(generateButton());
    await waitFor(() => expect(calls.some((c) => c.path === '/generations/gen-1')).toBe(true));
    const [call] = shotCalls(calls);
    expect(call!.headers.prefer).toBe('respond-async');
    expect(call!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByRole('button', { name: 'Generating…' })).toBeTruthy();

    socket.emit('generation:style', { generationId: 'gen-1', index: 0, status: 'progress', progress: 40 });
    expect(await screen.findByText('Generating your shot… 40%')).toBeTruthy();
    socket.emit('generation:style', {
      generationId: 'gen-1',
      index: 0,
      status: 'complete',
      ...stored('/storage/out.png'),
    });
    row = shotDone;
    socket.emit('generation:done', { generationId: 'gen-1', status: 'complete', error: null });

    expectRenditionOf(await screen.findByAltText('Lifestyle shot of Mug'), '/storage/out.png');
    expect(screen.getByText('Lifestyle result')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Session history' })).toBeTruthy();
    expect(generateBlocked()).toBe(false);
  });

  it('keeps focus on Generate while it is busy, and a click then starts nothing more', async () => {
    const { calls } = renderEditor(oneProduct);
    await waitFor(() => expect(generateBlocked()).toBe(false));
    generateButton().focus();
    fireEvent.click(generateButton());
    await waitFor(() => expect(generateButton().textContent).toBe('Generating…'));
    expect(generateBlocked()).toBe(true);
    expect(generateButton().hasAttribute('disabled')).toBe(false);
    expect(document.activeElement).toBe(generateButton());
    fireEvent.click(generateButton());
    await waitFor(() => expect(calls.some((c) => c.path === '/generations/gen-1')).toBe(true));
    expect(shotCalls(calls)).toHaveLength(1);
  });

  it("shows the server's reason when the shot fails", async () => {
    const reason = 'This image has nothing to work with: we could not find a product in it.';
    const failed: GenerationDto = {
      ...queued,
      status: 'failed',
      error: reason,
      styles: [{ ...queued.styles[0]!, status: 'failed', error: reason }],
    };
    const { socket } = renderEditor(oneProduct, { 'GET /generations/gen-1': () => ({ data: failed }) });
    await waitFor(() => expect(generateBlocked()).toBe(false));
    fireEvent.click(generateButton());
    expect((await screen.findByRole('alert')).textContent).toBe(reason);
    socket.emit('generation:done', { generationId: 'gen-1', status: 'failed', error: reason });
    expect(screen.queryByAltText('Lifestyle shot of Mug')).toBeNull();
  });

  it('retries a call that got no answer with the same Idempotency-Key, and a new click sends a new one', async () => {
    const answers = [networkFailure, accepted, accepted];
    const { calls } = renderEditor(oneProduct, {
      'POST /images/generate-product-shots': () => answers.shift()!(),
      'GET /generations/gen-1': () => ({ data: shotDone }),
    });
    await waitFor(() => expect(generateBlocked()).toBe(false));
    fireEvent.click(generateButton());
    expect(await screen.findByText('Lifestyle result', undefined, { timeout: 3000 })).toBeTruthy();
    const [first, retry] = idempotencyKeys(shotCalls(calls));
    expect(retry).toBe(first);

    fireEvent.click(generateButton());
    await waitFor(() => expect(shotCalls(calls)).toHaveLength(3));
    expect(idempotencyKeys(shotCalls(calls))[2]).not.toBe(first);
  });
});
