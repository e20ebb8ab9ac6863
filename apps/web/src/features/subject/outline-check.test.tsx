import { MAX_TAPS, OUTLINE_CONFIRM_LABEL, OUTLINE_PROMPT, type SubjectDto, type Tap } from '@prodshot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { layOutImage, stubApi } from '../../test-support/fake-api.js';
import { pendingSubject, sureOutline, twoProducts, unsureOutline } from '../../test-support/subjects.js';
import { useSubject } from './api/get-subject.js';
import { focusToSend, OUTLINE_REMAKING, OutlineCheck, outlineHolds } from './outline-check.js';
import { TAPS_FULL } from './outline-taps.js';

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
    render(
      <QueryClientProvider client={new QueryClient()}>
        <OutlineCheck subject={twoProducts} />
      </QueryClientProvider>,
    );
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
    const confirmed = {
      ...unsureOutline,
      outline: { ...unsureOutline.outline!, confirmed: true, needsConfirmation: false },
    };
    const calls = renderCheck(unsureOutline, { 'POST /images/img-1/outline/confirm': () => ({ data: confirmed }) });
    expect(await screen.findByText(/runs into the edge of the photo/)).toBeTruthy();
    expect(screen.getByTestId('holds').textContent).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: OUTLINE_CONFIRM_LABEL }));
    await waitFor(() => expect(screen.getByTestId('holds').textContent).toBe('false'));
    expect(calls.filter((call) => call.path === '/images/img-1/outline/confirm')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: OUTLINE_CONFIRM_LABEL })).toBeNull();
    expect(screen.getByText(/Confirmed: your shots use this outline/)).toBeTruthy();
  });

  it('sends a tap on the cutout as a keep tap at fractions of the photo and shows the outline made for it', async () => {
    const fixed = {
      ...unsureOutline,
      outline: {
        ...unsureOutline.outline!,
        url: '/storage/outline-250-500.webp',
        focus: [{ x: 0.25, y: 0.5, keep: true }],
        needsConfirmation: false,
      },
    };
    const calls = renderCheck(unsureOutline, { 'POST /images/img-1/outline': () => ({ data: fixed }) });
    await screen.findByText(OUTLINE_PROMPT);
    // A 1000×500 cutout contained in a 400×400 box: bars of 100 px above and below.
    layOutImage(cutout(), { left: 0, top: 0, width: 400, height: 400 }, { width: 1000, height: 500 });
    fireEvent.click(cutout(), { clientX: 100, clientY: 200 });
    await waitFor(() => expect(cutout().getAttribute('src')).toBe('/storage/outline-250-500.webp'));
    expect(calls.find((call) => call.path === '/images/img-1/outline')?.body).toEqual({
      focus: [{ x: 0.25, y: 0.5, keep: true }],
    });
    expect(screen.getByTestId('holds').textContent).toBe('false');
    expect(screen.getByText(/Fixed with your tap/)).toBeTruthy();
  });

  it('sends the outline’s taps with a paid call, else the page’s own tap, else nothing', () => {
    const taps: Tap[] = [
      { x: 0.2, y: 0.5, keep: true },
      { x: 0.8, y: 0.5, keep: false },
    ];
    const tapped = { ...unsureOutline, outline: { ...unsureOutline.outline!, focus: taps, needsConfirmation: false } };
    expect(focusToSend(tapped, { x: 0.5, y: 0.5 })).toEqual(taps);
    expect(focusToSend(unsureOutline, { x: 0.5, y: 0.5 })).toEqual({ x: 0.5, y: 0.5 });
    expect(focusToSend(unsureOutline, null)).toBeUndefined();
    expect(focusToSend(undefined, null)).toBeUndefined();
  });

  it('counts a tap of the page’s own as the seller’s choice', () => {
    expect(outlineHolds(unsureOutline, { x: 0.5, y: 0.5 })).toBe(false);
    expect(outlineHolds(unsureOutline, null)).toBe(true);
    expect(outlineHolds(undefined, null)).toBe(false);
  });
});

/** The server as the outline calls meet it: each list of taps answers an outline made for it, recorded with them. */
function outlineServer() {
  return {
    'POST /images/img-1/outline': (body: unknown) => {
      const focus = (body as { focus?: Tap[] }).focus ?? null;
      const url = focus ? `/storage/outline-${focus.length}.webp` : '/storage/outline.webp';
      return {
        data: {
          ...unsureOutline,
          outline: { ...unsureOutline.outline!, url, focus, needsConfirmation: focus === null },
        },
      };
    },
  };
}

describe('taps on the outline that keep and remove', () => {
  const sentTaps = (calls: { path: string; body: unknown }[]) =>
    calls
      .filter((call) => call.path === '/images/img-1/outline')
      .map((call) => (call.body as { focus?: Tap[] }).focus ?? null);
  const markers = () => {
    const list = screen.queryByRole('list', { name: 'Your taps on the photo' });
    return list
      ? within(list)
          .getAllByRole('listitem')
          .map((item) => item.textContent)
      : [];
  };

  async function shown() {
    await screen.findByText(OUTLINE_PROMPT);
    // A 1000×1000 cutout shown at 400×400 from the page's top-left: a client pixel is 2.5 of the photo's.
    layOutImage(cutout(), { left: 0, top: 0, width: 400, height: 400 }, { width: 1000, height: 1000 });
  }

  /** Once the outline for `count` taps shows and nothing is being made: the next tap is taken. */
  async function outlineFor(count: number) {
    await waitFor(() =>
      expect(cutout().getAttribute('src')).toBe(count ? `/storage/outline-${count}.webp` : '/storage/outline.webp'),
    );
    await waitFor(() => expect(screen.queryByText(OUTLINE_REMAKING)).toBeNull());
  }

  async function tapAt(clientX: number, clientY: number, count: number) {
    fireEvent.click(cutout(), { clientX, clientY });
    await outlineFor(count);
  }

  it('adds keep taps, switches to remove taps, marks each on the photo and sends the whole list each time', async () => {
    const calls = renderCheck(unsureOutline, outlineServer());
    await shown();
    expect(screen.getByRole('button', { name: 'Keep' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(`0 of ${MAX_TAPS} taps`)).toBeTruthy();
    await tapAt(100, 200, 1);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.getByRole('button', { name: 'Remove' }).getAttribute('aria-pressed')).toBe('true');
    await tapAt(300, 200, 2);
    expect(sentTaps(calls)).toEqual([
      [{ x: 0.25, y: 0.5, keep: true }],
      [
        { x: 0.25, y: 0.5, keep: true },
        { x: 0.75, y: 0.5, keep: false },
      ],
    ]);
    expect(markers()).toEqual(['+Keep tap 1', '−Remove tap 2']);
    const [keepDot, removeDot] = within(screen.getByRole('list', { name: 'Your taps on the photo' })).getAllByRole(
      'listitem',
    );
    expect([keepDot!.style.left, keepDot!.style.top, keepDot!.className]).toEqual([
      '25%',
      '50%',
      'tap-dot tap-dot-keep',
    ]);
    expect([removeDot!.style.left, removeDot!.className]).toEqual(['75%', 'tap-dot tap-dot-remove']);
    expect(screen.getByText(`2 of ${MAX_TAPS} taps`)).toBeTruthy();
    expect(screen.getByText('Fixed with your taps: your shots use this outline.')).toBeTruthy();
    expect(screen.getByTestId('holds').textContent).toBe('false');
  });

  it('undoes the last tap, down to the engine’s own pick, which must be confirmed again', async () => {
    const calls = renderCheck(unsureOutline, outlineServer());
    await shown();
    const undo = () => screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement;
    expect(undo().disabled).toBe(true);
    await tapAt(100, 200, 1);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await tapAt(300, 200, 2);
    fireEvent.click(undo());
    await outlineFor(1);
    expect(markers()).toEqual(['+Keep tap 1']);
    fireEvent.click(undo());
    await outlineFor(0);
    expect(sentTaps(calls).slice(2)).toEqual([[{ x: 0.25, y: 0.5, keep: true }], null]);
    expect(markers()).toEqual([]);
    expect(undo().disabled).toBe(true);
    expect(screen.getByRole('button', { name: OUTLINE_CONFIRM_LABEL })).toBeTruthy();
    expect(screen.getByTestId('holds').textContent).toBe('true');
  });

  it(`keeps at most ${MAX_TAPS} taps: another tap sends nothing until one is undone`, async () => {
    const calls = renderCheck(unsureOutline, outlineServer());
    await shown();
    for (let count = 1; count <= MAX_TAPS; count++) await tapAt(count * 40, 200, count);
    expect(markers()).toHaveLength(MAX_TAPS);
    expect(screen.getByText(TAPS_FULL)).toBeTruthy();
    fireEvent.click(cutout(), { clientX: 380, clientY: 380 });
    expect(sentTaps(calls)).toHaveLength(MAX_TAPS);
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await outlineFor(MAX_TAPS - 1);
    expect(markers()).toHaveLength(MAX_TAPS - 1);
    await tapAt(380, 380, MAX_TAPS);
    expect(sentTaps(calls).at(-1)!.at(-1)).toEqual({ x: 0.95, y: 0.95, keep: true });
  });

  it('shows the taps but takes none once generation has started', async () => {
    const tapped = {
      ...unsureOutline,
      outline: { ...unsureOutline.outline!, focus: [{ x: 0.3, y: 0.4, keep: false }], needsConfirmation: false },
    };
    const calls = stubApi({});
    render(
      <QueryClientProvider client={new QueryClient()}>
        <OutlineCheck subject={tapped} locked />
      </QueryClientProvider>,
    );
    expect(markers()).toEqual(['−Remove tap 1']);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    layOutImage(cutout(), { left: 0, top: 0, width: 400, height: 400 }, { width: 1000, height: 1000 });
    fireEvent.click(cutout(), { clientX: 100, clientY: 100 });
    expect(calls).toEqual([]);
  });
});
