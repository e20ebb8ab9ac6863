import { OUTLINE_CONFIRM_LABEL, OUTLINE_PROMPT, type SubjectDto } from '@prodshot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { layOutImage, stubApi } from '../../test-support/fake-api.js';
import { pendingSubject, sureOutline, twoProducts, unsureOutline } from '../../test-support/subjects.js';
import { useSubject } from './api/get-subject.js';
import { OutlineCheck, outlineHolds } from './outline-check.js';

/** The check as a screen uses it: the subject read through the shared cache, so the calls' answers show. */
function Screen() {
  const { subject } = useSubject('img-1');
  return (
    <>
      <OutlineCheck subject={subject} />
      <span data-testid="holds">{String(outlineHolds(subject, null))}</span>
    </>
  );
}

function renderCheck(subject: SubjectDto, routes: Record<string, (body: unknown) => unknown> = {}) {
  const calls = stubApi({ 'GET /images/img-1/subject': () => ({ data: subject }), ...routes });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Screen />
    </QueryClientProvider>,
  );
  return calls;
}

const cutout = () => screen.getByAltText('Your product as Prodshot cut it out') as HTMLImageElement;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OutlineCheck', () => {
  it('shows nothing while the product is being found, nor without an outline', () => {
    renderCheck(pendingSubject);
    expect(screen.queryByTestId('outline-check')).toBeNull();
    render(<QueryClientProvider client={new QueryClient()}><OutlineCheck subject={twoProducts} /></QueryClientProvider>);
    expect(screen.queryByTestId('outline-check')).toBeNull();
  });

  it('shows a sure outline with its prompt and asks for no confirmation', async () => {
    renderCheck(sureOutline);
    expect(await screen.findByText(OUTLINE_PROMPT)).toBeTruthy();
    expect(cutout().getAttribute('src')).toBe('/storage/outline.webp');
    expect(screen.queryByRole('button', { name: OUTLINE_CONFIRM_LABEL })).toBeNull();
    expect(screen.getByTestId('holds').textContent).toBe('false');
  });

  it('holds an unsure outline, says why, and lets the seller confirm it', async () => {
    const confirmed = { ...unsureOutline, outline: { ...unsureOutline.outline!, confirmed: true, needsConfirmation: false } };
    const calls = renderCheck(unsureOutline, { 'POST /images/img-1/outline/confirm': () => ({ data: confirmed }) });
    expect(await screen.findByText(/runs into the edge of the photo/)).toBeTruthy();
    expect(screen.getByTestId('holds').textContent).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: OUTLINE_CONFIRM_LABEL }));
    await waitFor(() => expect(screen.getByTestId('holds').textContent).toBe('false'));
    expect(calls.filter((call) => call.path === '/images/img-1/outline/confirm')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: OUTLINE_CONFIRM_LABEL })).toBeNull();
    expect(screen.getByText(/Confirmed: your shots use this outline/)).toBeTruthy();
  });

  it('sends a tap on the cutout as fractions of the photo and shows the outline made for it', async () => {
    const fixed = { ...unsureOutline, outline: { ...unsureOutline.outline!, url: '/storage/outline-250-500.webp', focus: { x: 0.25, y: 0.5 }, needsConfirmation: false } };
    const calls = renderCheck(unsureOutline, { 'POST /images/img-1/outline': () => ({ data: fixed }) });
    await screen.findByText(OUTLINE_PROMPT);
    // A 1000×500 cutout contained in a 400×400 box: bars of 100 px above and below.
    layOutImage(cutout(), { left: 0, top: 0, width: 400, height: 400 }, { width: 1000, height: 500 });
    fireEvent.click(cutout(), { clientX: 100, clientY: 200 });
    await waitFor(() => expect(cutout().getAttribute('src')).toBe('/storage/outline-250-500.webp'));
    expect(calls.find((call) => call.path === '/images/img-1/outline')?.body).toEqual({ focus: { x: 0.25, y: 0.5 } });
    expect(screen.getByTestId('holds').textContent).toBe('false');
    expect(screen.getByText(/Fixed with your tap/)).toBeTruthy();
  });

  it('counts a tap of the page’s own as the seller’s choice', () => {
    expect(outlineHolds(unsureOutline, { x: 0.5, y: 0.5 })).toBe(false);
    expect(outlineHolds(unsureOutline, null)).toBe(true);
    expect(outlineHolds(undefined, null)).toBe(false);
  });
});
