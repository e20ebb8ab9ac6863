import type { ImageDto, ImageResponse } from '@prodshot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../lib/query-keys.js';
import { stubApi } from '../../../test-support/fake-api.js';
import { stored } from '../../../test-support/renditions.js';
import { useUploadNamedImage } from './upload-image.js';

const bare: ImageDto = {
  _id: 'img-1',
  fileId: 'file-1',
  name: 'IMG_0042.png',
  productTitle: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  originalImage: stored('/storage/shoe.png'),
  coach: [],
};

afterEach(() => vi.unstubAllGlobals());

describe('the smart page upload with a title', () => {
  it('leaves the titled image in the cache, where the results page reads its download names', async () => {
    stubApi({
      'POST /images/upload': () => bare,
      'PUT /images/img-1/title': (body) => ({
        data: { ...bare, productTitle: (body as { productTitle: string }).productTitle },
      }),
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const uploaded: ImageDto[] = [];
    const { result } = renderHook(
      () => useUploadNamedImage({ onUploaded: (image) => uploaded.push(image), onError: () => {} }),
      { wrapper },
    );

    act(() =>
      result.current.mutate({
        file: new File([new Uint8Array(8)], 'IMG_0042.png', { type: 'image/png' }),
        title: 'Runner 420 sneaker',
        idempotencyKey: 'key-1',
      }),
    );

    await waitFor(() => expect(uploaded).toHaveLength(1));
    expect(uploaded[0]!.productTitle).toBe('Runner 420 sneaker');
    expect(queryClient.getQueryData<ImageResponse>(queryKeys.image('img-1'))?.data.productTitle).toBe(
      'Runner 420 sneaker',
    );
  });
});
