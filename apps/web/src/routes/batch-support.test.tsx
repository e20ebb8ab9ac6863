import {
  SUPPORTED_PRODUCT_LIST,
  UNSUPPORTED_PRODUCT_MESSAGE,
  type ImageDto,
  type SubjectDto,
} from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { stored } from '../test-support/renditions.js';
import { subscriptionOn } from '../test-support/subscriptions.js';
import { pendingSubject, sureOutline } from '../test-support/subjects.js';
import { NewBatchPage } from './batch.js';

const photo = (name: string) => new File(['png'], name, { type: 'image/png' });
const uploaded = (n: number): ImageDto => ({
  _id: `img-${n}`,
  fileId: `file-${n}`,
  name: `photo-${n}.png`,
  productTitle: null,
  createdAt: '2026-11-27T00:00:00.000Z',
  originalImage: stored(`/storage/photo-${n}.png`),
  coach: [],
});
const readAs = (imageId: string, kind: string, supported: boolean): SubjectDto => ({
  ...sureOutline,
  imageId,
  product: { kind, supported },
});

function startDraft(files: File[], subjects: Record<string, () => SubjectDto>) {
  let uploads = 0;
  const calls = stubApi({
    'POST /images/upload': () => uploaded(++uploads),
    'GET /images': () => ({ data: [] }),
    'GET /users/subscription': () => ({ ...subscriptionOn('starter'), subscriptionCredits: 0, addOnCredits: 40 }),
    'POST /batches': () => ({ data: { batchId: 'batch-1', credits: 4, status: 'queued' } }),
    ...Object.fromEntries(
      Object.entries(subjects).map(([imageId, subject]) => [
        `GET /images/${imageId}/subject`,
        () => ({ data: subject() }),
      ]),
    ),
  });
  renderRoutes(
    [
      { path: '/batches/new', element: <NewBatchPage /> },
      { path: '/batches/:batchId', element: <h1>Batch started</h1> },
    ],
    [{ pathname: '/batches/new', state: { files } }],
  );
  return calls;
}

const confirmButton = () => screen.getByRole('button', { name: /Confirm and start/ }) as HTMLButtonElement;

beforeEach(() => {
  Object.assign(URL, { createObjectURL: (file: File) => `blob:${file.name}`, revokeObjectURL: () => undefined });
});
afterEach(() => vi.unstubAllGlobals());

describe("the batch draft's support line: what each photo was read as, before 'Confirm and start'", () => {
  it('says a photo read as a supported kind, or as no kind, is ready to shoot, and lets the batch start', async () => {
    startDraft([photo('juice.png'), photo('shoe.png')], {
      'img-1': () => readAs('img-1', 'unknown', true),
      'img-2': () => readAs('img-2', 'footwear', true),
    });
    const items = await screen.findAllByTestId('batch-item');
    await waitFor(() => expect(within(items[0]!).getByTestId('photo-support').textContent).toBe('✓ Ready to shoot'));
    await waitFor(() =>
      expect(within(items[1]!).getByTestId('photo-support').textContent).toBe('✓ Footwear: ready to shoot'),
    );
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('checks while the analysis runs, then refuses a photo read as unsupported in a notice with the supported list, holding the batch until it is removed', async () => {
    let juice: SubjectDto = { ...pendingSubject, imageId: 'img-2' };
    const calls = startDraft([photo('shoe.png'), photo('juice.png')], {
      'img-1': () => readAs('img-1', 'footwear', true),
      'img-2': () => juice,
    });
    const items = await screen.findAllByTestId('batch-item');
    await waitFor(() =>
      expect(within(items[1]!).getByTestId('photo-support').textContent).toBe('Checking the product type…'),
    );

    juice = readAs('img-2', 'food', false);
    const notice = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(notice.textContent).toContain(`Photo 2: ${UNSUPPORTED_PRODUCT_MESSAGE} (food).`);
    for (const kind of SUPPORTED_PRODUCT_LIST) expect(within(notice).getByText(kind)).toBeTruthy();
    expect(within(screen.getAllByTestId('batch-item')[1]!).getByRole('alert')).toBe(notice);
    expect(confirmButton().disabled).toBe(true);
    expect(screen.getByText('Remove photo 2 to start: Prodshot does not shoot that product type yet.')).toBeTruthy();

    fireEvent.click(within(notice).getByRole('button', { name: 'Remove photo 2' }));
    await waitFor(() => expect(screen.getAllByTestId('batch-item')).toHaveLength(1));
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
    fireEvent.click(confirmButton());
    await waitFor(() => expect(calls.filter((c) => c.path === '/batches')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/batches')!.body).toMatchObject({ items: [{ imageId: 'img-1' }] });
  });
});
