import { TAP_PRODUCT_MESSAGE, type ProductShotRequest, type SubjectDto } from '@prodshot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EditorState } from '../features/uploads/upload-items.js';
import { layOutImage, stubApi, type ApiCall } from '../test-support/fake-api.js';
import { failedSubject, oneProduct, pendingSubject, twoProducts } from '../test-support/subjects.js';
import { EditorPage } from './editor.js';

const source: EditorState = { imageUrl: '/storage/two.png', imageId: 'img-1', fileId: 'file-1', name: 'Mug' };

function renderEditor(subject: SubjectDto): ApiCall[] {
  const calls = stubApi({
    'GET /images/img-1/subject': () => ({ data: subject }),
    'GET /images/recent/generations': () => ({ data: [] }),
    'POST /images/generate-product-shots': () => ({ data: { generationId: 'gen-1', processedImages: [{ url: '/storage/out.png', settings: { backgroundType: 'lifestyle' } }] } }),
  });
  const router = createMemoryRouter([{ path: '/editor', element: <EditorPage /> }], { initialEntries: [{ pathname: '/editor', state: source }] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return calls;
}

const shotCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/images/generate-product-shots');
const generateButton = () => screen.getByRole('button', { name: 'Generate' }) as HTMLButtonElement;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('EditorPage tap step', () => {
  it('disables Generate with the tap message until the product is tapped, then sends the focus', async () => {
    const calls = renderEditor(twoProducts);
    await waitFor(() => expect(generateButton().disabled).toBe(true));
    // Over the preview, and beside the disabled button that it explains.
    expect(screen.getAllByText(TAP_PRODUCT_MESSAGE)).toHaveLength(2);
    const reason = document.getElementById(generateButton().getAttribute('aria-describedby')!);
    expect(reason?.textContent).toBe(TAP_PRODUCT_MESSAGE);

    const photo = screen.getByAltText('Original photo of Mug');
    layOutImage(photo, { left: 0, top: 0, width: 500, height: 500 }, { width: 1000, height: 1000 });
    fireEvent.click(photo, { clientX: 125, clientY: 250, detail: 1 });
    expect(generateButton().disabled).toBe(false);
    expect(generateButton().getAttribute('aria-describedby')).toBeNull();
    expect(screen.getByTestId('tap-marker').style.left).toBe('25%');

    fireEvent.click(generateButton());
    await waitFor(() => expect(shotCalls(calls)).toHaveLength(1));
    expect(shotCalls(calls)[0]!.body as ProductShotRequest).toMatchObject({ imageId: 'img-1', backgroundType: 'lifestyle', count: 1, focus: { x: 0.25, y: 0.5 } });
  });

  it.each([
    ['clear', oneProduct],
    ['still pending', pendingSubject],
  ])('generates at once and without focus when the subject is %s', async (_name, subject) => {
    const calls = renderEditor(subject);
    await waitFor(() => expect(calls.some((c) => c.path === '/images/img-1/subject')).toBe(true));
    expect(screen.queryByText(TAP_PRODUCT_MESSAGE)).toBeNull();
    fireEvent.click(generateButton());
    await waitFor(() => expect(shotCalls(calls)).toHaveLength(1));
    expect(shotCalls(calls)[0]!.body).not.toHaveProperty('focus');
  });

  it("shows a failed subject's error and offers no generation", async () => {
    const calls = renderEditor(failedSubject);
    expect((await screen.findByRole('alert')).textContent).toBe(failedSubject.error);
    expect(generateButton().disabled).toBe(true);
    fireEvent.click(generateButton());
    expect(shotCalls(calls)).toHaveLength(0);
  });
});
