import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokenSource } from '../../lib/api-client.js';
import { apiError, stubApi } from '../../test-support/fake-api.js';
import { stored } from '../../test-support/renditions.js';
import { FallbackImage } from './fallback-image.js';

const created: string[] = [];
const revoked: string[] = [];

beforeEach(() => {
  created.length = 0;
  revoked.length = 0;
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:fallback-${created.length}-${blob.size}`;
      created.push(url);
      return url;
    },
    revokeObjectURL: (url: string) => revoked.push(url),
  });
  setTokenSource(() => 'seller-token');
});

afterEach(() => {
  vi.unstubAllGlobals();
  setTokenSource(() => null);
});

const image = stored('/storage/mug.png');
const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);

function renderTile(fallback: () => unknown) {
  const calls = stubApi({ 'GET /uploads/file-1': fallback });
  const view = render(<FallbackImage id="file-1" image={image} alt="mug.png" />);
  return { calls, view, img: () => screen.getByAltText('mug.png') as HTMLImageElement };
}

describe('FallbackImage', () => {
  it('fetches /uploads/{id}?fallback=true with the bearer token when the rendition fails, shows it from a blob URL, and releases that URL on unmount', async () => {
    const { calls, view, img } = renderTile(
      () => new Response(pngBytes, { status: 200, headers: { 'content-type': 'image/png' } }),
    );
    expect(img().getAttribute('src')).toBe(image.thumbnailUrl);
    expect(calls).toHaveLength(0);

    fireEvent.error(img());
    await waitFor(() => expect(img().getAttribute('src')).toBe(`blob:fallback-0-${pngBytes.length}`));
    expect(calls.map((call) => [call.method, call.path, call.headers.authorization])).toEqual([
      ['GET', '/uploads/file-1', 'Bearer seller-token'],
    ]);
    expect(vi.mocked(fetch).mock.calls[0]![0] as string).toBe('/uploads/file-1?fallback=true');
    expect(img().getAttribute('aria-busy')).toBe('false');

    view.unmount();
    expect(revoked).toEqual(created);
  });

  it('shows the placeholder when the fallback is refused', async () => {
    const { img } = renderTile(() => apiError(404, 'Image not found', 'image_not_found'));
    fireEvent.error(img());
    await waitFor(() => expect(img().getAttribute('aria-busy')).toBe('false'));
    expect(img().getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(created).toEqual([]);
  });

  it('shows the placeholder when the fallback image itself cannot be shown', async () => {
    const { img } = renderTile(() => new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
    fireEvent.error(img());
    await waitFor(() => expect(img().getAttribute('src')).toMatch(/^blob:/));
    fireEvent.error(img());
    expect(img().getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  });

  it('tries fresh links again before any fallback', async () => {
    const { img, view } = renderTile(() => apiError(404, 'Image not found'));
    fireEvent.error(img());
    await waitFor(() => expect(img().getAttribute('aria-busy')).toBe('false'));
    const fresh = stored('/storage/mug-fresh.png');
    view.rerender(<FallbackImage id="file-1" image={fresh} alt="mug.png" />);
    expect(img().getAttribute('src')).toBe(fresh.thumbnailUrl);
  });
});
