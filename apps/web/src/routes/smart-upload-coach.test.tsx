import {
  coachWarning,
  TAP_PRODUCT_MESSAGE,
  type GenerationDto,
  type ImageDto,
  type SubjectDto,
} from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SmartUploadState } from '../features/uploads/upload-items.js';
import { layOutImage, stubApi, type ApiCall } from '../test-support/fake-api.js';
import { fakeSocket } from '../test-support/fake-socket.js';
import { stored } from '../test-support/renditions.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { oneProduct, pendingSubject, twoProducts } from '../test-support/subjects.js';
import { SmartRunPage } from './smart-run.js';
import { SmartUploadPage } from './smart-upload.js';

const blurry = coachWarning('blurry');
const busyBackground = coachWarning('busy_background');
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

function stubCoachApi(uploaded: ImageDto, subject: SubjectDto): ApiCall[] {
  return stubApi({
    'POST /images/upload': () => uploaded,
    'GET /images/img-1': () => ({ data: uploaded }),
    'GET /images/img-1/subject': () => ({ data: subject }),
    'POST /images/smart-generate-product-shots': () => ({ data: { generationId: 'gen-1', status: 'queued' } }),
    'GET /generations/gen-1': () => ({ data: running }),
  });
}

const upload = (coach: ImageDto['coach']): ImageDto => ({
  _id: 'img-1',
  fileId: 'file-1',
  name: 'shoe.jpg',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/shoe.jpg'),
  coach,
});
const freshFile = (): SmartUploadState => ({ file: new File(['jpg'], 'shoe.jpg', { type: 'image/jpeg' }) });
const smartCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/images/smart-generate-product-shots');
const routes = [
  { path: '/smart-upload', element: <SmartUploadPage /> },
  { path: '/smart/:generationId', element: <SmartRunPage /> },
];

beforeEach(() => {
  Object.assign(URL, { createObjectURL: () => 'blob:own', revokeObjectURL: () => undefined });
});

describe('SmartUploadPage photo coach', () => {
  it('shows the upload’s blur warning at once and still starts by itself; the run page keeps the tip in sight', async () => {
    const calls = stubCoachApi(upload([blurry]), pendingSubject);
    const { router, queryClient } = renderRoutes(routes, [{ pathname: '/smart-upload', state: freshFile() }]);
    expect(await screen.findByText(blurry.advice)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Go ahead anyway' })).toBeNull();
    expect(smartCalls(calls)).toHaveLength(0);
    fakeSocket(queryClient).emit('image:subject', { ...oneProduct, coach: [blurry] });
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart/gen-1'));
    expect(await screen.findByRole('heading', { name: 'A tip for your next photo' })).toBeTruthy();
    expect(screen.getByText(blurry.advice)).toBeTruthy();
  });

  it('shows the product checks the socket brings with the subject, and starts with them', async () => {
    const calls = stubCoachApi(upload([]), { ...pendingSubject, coach: [] });
    const { queryClient } = renderRoutes(routes, [{ pathname: '/smart-upload', state: freshFile() }]);
    await waitFor(() => expect(calls.some((c) => c.path === '/images/img-1/subject')).toBe(true));
    expect(screen.queryByText(busyBackground.advice)).toBeNull();
    fakeSocket(queryClient).emit('image:subject', { ...oneProduct, coach: [busyBackground] });
    expect(await screen.findByText(busyBackground.advice)).toBeTruthy();
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
  });

  it('keeps the Generate button on a photo that needs a tap: the tap answers its busy background', async () => {
    const calls = stubCoachApi(upload([]), { ...twoProducts, coach: [busyBackground] });
    renderRoutes(routes, [{ pathname: '/smart-upload', state: freshFile() }]);
    expect(await screen.findByText(busyBackground.advice)).toBeTruthy();
    expect(await screen.findByText(TAP_PRODUCT_MESSAGE)).toBeTruthy();
    layOutImage(
      screen.getByAltText('Your product'),
      { left: 0, top: 0, width: 400, height: 400 },
      { width: 1000, height: 500 },
    );
    fireEvent.click(screen.getByAltText('Your product'), { clientX: 300, clientY: 250, detail: 1 });
    expect(screen.queryByRole('button', { name: 'Go ahead anyway' })).toBeNull();
    expect(smartCalls(calls)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Generate Product Shots' }));
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
  });

  it('starts at once when the coach has nothing to say', async () => {
    const calls = stubCoachApi(upload([]), { ...oneProduct, coach: [] });
    renderRoutes(routes, [{ pathname: '/smart-upload', state: freshFile() }]);
    await waitFor(() => expect(smartCalls(calls)).toHaveLength(1));
  });
});
