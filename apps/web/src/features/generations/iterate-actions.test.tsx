import {
  BUY_CREDITS_URL,
  insufficientCreditsMessage,
  type GenerationDto,
  type GenerationListItem,
  type ImageDto,
  type StyleSlotDto,
} from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AllGenerationsPage } from '../../routes/all-generations.js';
import { EditorPage } from '../../routes/editor.js';
import { SmartResultsPage } from '../../routes/smart-results.js';
import { SmartRunPage } from '../../routes/smart-run.js';
import { SmartUploadPage } from '../../routes/smart-upload.js';
import { insufficientCredits, layOutImage, stubApi, type ApiCall } from '../../test-support/fake-api.js';
import { fakeSocket } from '../../test-support/fake-socket.js';
import { renderRoutes } from '../../test-support/render-routes.js';
import { expectRenditionOf, renditionsOf, stored } from '../../test-support/renditions.js';
import { SHOT_FILES } from '../../test-support/shot-files.js';
import { oneProduct, twoProducts } from '../../test-support/subjects.js';

const image: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'mug.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/mug.png'),
  coach: [],
};
const slot = (index: number, over: Partial<StyleSlotDto> = {}): StyleSlotDto => ({
  index,
  name: 'Marble Counter',
  prompt: 'polished marble counter, soft window light',
  status: 'complete',
  progress: 100,
  ...stored(`/storage/out-${index}.png`),
  error: null,
  backgroundType: 'Marble Counter',
  seed: 41,
  ...over,
});
const run = (styles: StyleSlotDto[], over: Partial<GenerationDto> = {}): GenerationDto => ({
  id: 'gen-1',
  kind: 'smart',
  status: 'complete',
  stage: 'generating',
  imageId: 'img-1',
  productInfo: null,
  error: null,
  unsupportedProduct: false,
  styles,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...over,
});
const listed: GenerationListItem = {
  id: 'out-1',
  generationId: 'gen-1',
  index: 1,
  imageUrl: '/storage/out-1.png',
  ...renditionsOf('/storage/out-1.png'),
  name: 'Marble',
  files: SHOT_FILES,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const posts = (calls: ApiCall[]) => calls.filter((call) => call.method === 'POST');

beforeEach(() => {
  Object.assign(URL, { createObjectURL: () => 'blob:own', revokeObjectURL: () => undefined });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('More like this', () => {
  it('from the history popup: one keyed call for the output, then the new take appears once its generation settles', async () => {
    let take = run([slot(0, { status: 'running', url: null, thumbnailUrl: null, previewUrl: null })], {
      id: 'gen-2',
      kind: 'manual',
      status: 'running',
      origin: { generationId: 'gen-1', index: 1 },
    });
    const calls = stubApi({
      'GET /images/recent/generations': () => ({ data: [listed], nextCursor: null }),
      'POST /generations/gen-1/outputs/1/more-like-this': () => ({
        data: { generationId: 'gen-2', status: 'queued', from: { generationId: 'gen-1', index: 1 }, seed: 7 },
      }),
      'GET /generations/gen-2': () => ({ data: take }),
    });
    const { queryClient } = renderRoutes(
      [{ path: '/all-generations', element: <AllGenerationsPage /> }],
      ['/all-generations'],
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open generation out-1' }));
    const dialog = screen.getByRole('dialog');
    // The cost is on the button before the click.
    const more = within(dialog).getByRole('button', { name: 'More like this · 1 credit (this shot)' });
    expect(more.textContent).toContain('· 1 credit');
    fireEvent.click(more);
    fireEvent.click(more);
    expect(await within(dialog).findByText(/Making another take/)).toBeTruthy();
    // A double click is one request: every call it made carries the same Idempotency-Key.
    expect(new Set(posts(calls).map((call) => call.headers['idempotency-key']))).toEqual(
      new Set([expect.stringMatching(/.+/)]),
    );

    take = { ...take, status: 'complete', styles: [slot(0)] };
    fakeSocket(queryClient).emit('generation:done', { generationId: 'gen-2', status: 'complete', error: null });
    const newTake = await within(dialog).findByTestId('new-take');
    expectRenditionOf(within(newTake).getByAltText('Another take of this shot'), '/storage/out-0.png');
  });

  it('shows the refusal with the way to credits when the seller has no credit left', async () => {
    stubApi({
      'GET /generations/gen-1': () => ({ data: run([slot(0)]) }),
      'POST /generations/gen-1/outputs/0/more-like-this': () => insufficientCredits(1, 0),
    });
    renderRoutes([{ path: '/smart-results/:generationId', element: <SmartResultsPage /> }], ['/smart-results/gen-1']);
    fireEvent.click(await screen.findByRole('button', { name: 'More like this · 1 credit (the Marble Counter shot)' }));
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe(insufficientCreditsMessage(1, 0));
    expect(within(alert).getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe(BUY_CREDITS_URL);
  });
});

describe('Retry', () => {
  it('on the smart page: a failed style offers Retry (charged only if it works), and shows the style queued again', async () => {
    let row = run([
      slot(0),
      slot(1, {
        name: 'Night Market',
        status: 'failed',
        url: null,
        thumbnailUrl: null,
        previewUrl: null,
        error: 'The image model declined it.',
      }),
    ]);
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: row }),
      'GET /images/img-1': () => ({ data: image }),
      'POST /generations/gen-1/styles/1/retry': () => {
        row = {
          ...row,
          status: 'running',
          styles: [row.styles[0]!, { ...row.styles[1]!, status: 'queued', error: null }],
        };
        return { data: { generationId: 'gen-1', index: 1, attempt: 1, status: 'queued' } };
      },
    });
    renderRoutes([{ path: '/smart/:generationId', element: <SmartRunPage /> }], ['/smart/gen-1']);
    const retry = await screen.findByRole('button', { name: 'Retry · 1 credit if it works (the Night Market style)' });
    // A finished style offers iteration, never a retry.
    expect(screen.queryAllByRole('button', { name: /^Retry/ })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'More like this · 1 credit (the Marble Counter shot)' })).toBeTruthy();
    fireEvent.click(retry);
    expect(await screen.findByText('Waiting…')).toBeTruthy();
    expect(posts(calls).map((call) => call.path)).toEqual(['/generations/gen-1/styles/1/retry']);
    expect(screen.queryByRole('button', { name: /^Retry/ })).toBeNull();
  });

  it('keeps every failed style listed with its Retry when the whole run failed', async () => {
    const failed = (index: number, name: string) =>
      slot(index, {
        name,
        status: 'failed',
        url: null,
        thumbnailUrl: null,
        previewUrl: null,
        error: 'The image model declined it.',
      });
    stubApi({
      'GET /generations/gen-1': () => ({
        data: run([failed(0, 'Night Market'), failed(1, 'Storm Front')], {
          status: 'failed',
          error: 'Failed to generate product shots.',
        }),
      }),
      'GET /images/img-1': () => ({ data: image }),
    });
    renderRoutes([{ path: '/smart/:generationId', element: <SmartRunPage /> }], ['/smart/gen-1']);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to process image. Please try again.');
    expect(screen.getAllByRole('button', { name: /^Retry/ }).map((button) => button.textContent)).toEqual([
      'Retry · 1 credit if it works (the Night Market style)',
      'Retry · 1 credit if it works (the Storm Front style)',
    ]);
  });
});

describe('Open in editor', () => {
  function openFrom(generation: GenerationDto, index: number) {
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: generation }),
      'GET /images/img-1': () => ({ data: image }),
      'GET /images/img-1/subject': () => ({ data: oneProduct }),
      'GET /images/recent/generations': () => ({ data: [], nextCursor: null }),
      'POST /images/generate-product-shots': () => ({ data: { generationId: 'gen-9', status: 'queued' } }),
    });
    const view = renderRoutes(
      [
        { path: '/smart-results/:generationId', element: <SmartResultsPage /> },
        { path: '/editor', element: <EditorPage /> },
      ],
      ['/smart-results/gen-1'],
    );
    return { calls, ...view, index };
  }

  it("hands the editor the output's ids only; the editor reads the generation and starts on its prompt", async () => {
    const { router, calls } = openFrom(run([slot(0)]), 0);
    fireEvent.click(await screen.findByRole('button', { name: 'Open in editor (the Marble Counter shot)' }));
    await screen.findByRole('heading', { name: 'Editing: Marble Counter' });
    expect(router.state.location.state).toEqual({ fromOutput: { generationId: 'gen-1', index: 0 } });
    expect(screen.getByRole('tab', { name: 'Custom Background' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByPlaceholderText(/rustic wooden table/) as HTMLTextAreaElement).value).toBe(
      'polished marble counter, soft window light',
    );
    expect(screen.getByText(/Starting from/).textContent).toContain('Marble Counter');
    // The count and its cost are chosen before the click.
    fireEvent.click(screen.getByRole('radio', { name: '3' }));
    expect(screen.getByText('3 credits')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]!.body).toMatchObject({
      imageId: 'img-1',
      fileId: 'file-1',
      prompt: 'polished marble counter, soft window light',
      count: 3,
    });
  });

  it("starts on the output's template when it was made from one", async () => {
    openFrom(run([slot(0, { name: 'Dark Wood', prompt: null, backgroundType: 'darkwood' })], { kind: 'manual' }), 0);
    fireEvent.click(await screen.findByRole('button', { name: 'Open in editor (the Dark Wood shot)' }));
    await screen.findByRole('heading', { name: 'Editing: Dark Wood' });
    expect(screen.getByRole('tab', { name: 'Templates' }).getAttribute('aria-selected')).toBe('true');
    const pressed = screen.getAllByRole('button', { pressed: true });
    expect(pressed.map((button) => button.textContent)).toEqual([expect.stringContaining('Dark Wood')]);
  });

  it('shows that shot, not the original photo, with the original one tap away', async () => {
    openFrom(
      run([
        slot(0, { name: 'Night Market' }),
        slot(1, { name: 'Urban Concrete', prompt: 'raw concrete wall, hard light' }),
      ]),
      1,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open in editor (the Urban Concrete shot)' }));
    await screen.findByRole('heading', { level: 1, name: 'Editing: Urban Concrete' });
    const stage = screen.getByRole('region', { name: 'Preview' });
    expectRenditionOf(within(stage).getByAltText('Urban Concrete shot of mug.png'), '/storage/out-1.png');
    expect(within(stage).getByText('Urban Concrete result')).toBeTruthy();
    expect(within(stage).queryByAltText('Original photo of mug.png')).toBeNull();
    expect((screen.getByPlaceholderText(/rustic wooden table/) as HTMLTextAreaElement).value).toBe(
      'raw concrete wall, hard light',
    );

    fireEvent.click(within(stage).getByRole('button', { name: 'Show original' }));
    expect(within(stage).getByAltText('Original photo of mug.png').getAttribute('src')).toBe(
      image.originalImage.previewUrl,
    );
    expect(within(stage).queryByAltText('Urban Concrete shot of mug.png')).toBeNull();
    fireEvent.click(within(stage).getByRole('button', { name: 'Show Urban Concrete shot' }));
    expect(within(stage).getByAltText('Urban Concrete shot of mug.png')).toBeTruthy();
  });

  it('says so when the photo behind the shot was deleted', async () => {
    stubApi({ 'GET /generations/gen-1': () => ({ data: run([slot(0)], { imageId: null }) }) });
    renderRoutes(
      [{ path: '/editor', element: <EditorPage /> }],
      [{ pathname: '/editor', state: { fromOutput: { generationId: 'gen-1', index: 0 } } }],
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/was deleted/);
  });
});

describe('the smart page style count', () => {
  it('offers 1 to 6 styles with their cost, and asks for the count chosen', async () => {
    const calls = stubApi({
      'POST /images/upload': () => image,
      'GET /images/img-1': () => ({ data: image }),
      'GET /images/img-1/subject': () => ({ data: twoProducts }),
      'POST /images/smart-generate-product-shots': () => ({ data: { generationId: 'gen-1', status: 'queued' } }),
      'GET /generations/gen-1': () => ({ data: run([], { status: 'running' }) }),
    });
    renderRoutes(
      [
        { path: '/smart-upload', element: <SmartUploadPage /> },
        { path: '/smart/:generationId', element: <h1>Run</h1> },
      ],
      [{ pathname: '/smart-upload', state: { file: new File(['png'], 'mug.png', { type: 'image/png' }) } }],
    );
    const styles = await screen.findByRole('group', { name: 'Number of styles' });
    expect(
      within(styles)
        .getAllByRole('radio')
        .map((radio) => (radio as HTMLInputElement).value),
    ).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(screen.getByText('4 credits')).toBeTruthy();
    fireEvent.click(within(styles).getByRole('radio', { name: '6' }));
    expect(screen.getByText('6 credits')).toBeTruthy();
    layOutImage(
      screen.getByAltText('Your product'),
      { left: 0, top: 0, width: 400, height: 400 },
      { width: 1000, height: 500 },
    );
    fireEvent.click(screen.getByAltText('Your product'), { clientX: 300, clientY: 250, detail: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Product Shots' }));
    await screen.findByRole('heading', { name: 'Run' });
    expect(calls.find((call) => call.path === '/images/smart-generate-product-shots')?.body).toMatchObject({
      styleCount: 6,
    });
  });
});
