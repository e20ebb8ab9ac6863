import { TAP_PRODUCT_MESSAGE, TAP_TO_FIND_MESSAGE, type Focus, type SubjectDto } from '@prodshot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, layOutImage, stubApi } from '../../test-support/fake-api.js';
import {
  failedSubject,
  oneProduct,
  pendingSubject,
  sureOutline,
  twoProducts,
  unseenProduct,
} from '../../test-support/subjects.js';
import { focusAt, renderedImageBox } from './image-box.js';
import { mergeSubject } from './subject-cache.js';
import { FINDING_PRODUCT, LOOKING_WHERE_TAPPED, TapToPick } from './tap-to-pick.js';
import { phaseOf, useSubject } from './api/get-subject.js';

const withClient = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
);
const renderPick = (ui: ReactNode) => render(ui, { wrapper: withClient });

afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness({ subject, picked = [] }: { subject: SubjectDto | undefined; picked?: Focus[] }) {
  const [focus, setFocus] = useState<Focus | null>(null);
  const choose = (next: Focus) => {
    picked.push(next);
    setFocus(next);
  };
  return (
    <TapToPick
      src="/photo.png"
      alt="Your product"
      subject={subject}
      phase={phaseOf(subject, false)}
      focus={focus}
      onFocus={choose}
    />
  );
}

describe('renderedImageBox and focusAt', () => {
  const element = { left: 100, top: 50, width: 400, height: 400 };
  const wide = { width: 800, height: 400 };

  it('maps a click through a letterboxed (object-fit: contain) photo and ignores the bars', () => {
    const picture = renderedImageBox(element, wide, 'contain');
    expect(picture).toEqual({ left: 100, top: 150, width: 400, height: 200 });
    expect(focusAt(300, 250, picture)).toEqual({ x: 0.5, y: 0.5 });
    expect(focusAt(110, 160, picture)).toEqual({ x: 0.025, y: 0.05 });
    expect(focusAt(300, 100, picture)).toBeNull();
    expect(focusAt(300, 400, picture)).toBeNull();
  });

  it('maps a click through a cropped (cover), stretched (fill), unscaled and scaled-down photo', () => {
    const cover = renderedImageBox(element, wide, 'cover');
    expect(cover).toEqual({ left: -100, top: 50, width: 800, height: 400 });
    expect(focusAt(100, 50, cover)).toEqual({ x: 0.25, y: 0 });
    expect(focusAt(300, 250, renderedImageBox(element, wide, 'fill'))).toEqual({ x: 0.5, y: 0.5 });
    expect(renderedImageBox(element, { width: 200, height: 100 }, 'none')).toEqual({
      left: 200,
      top: 200,
      width: 200,
      height: 100,
    });
    expect(renderedImageBox(element, { width: 200, height: 100 }, 'scale-down')).toEqual({
      left: 200,
      top: 200,
      width: 200,
      height: 100,
    });
    expect(renderedImageBox(element, wide, 'scale-down')).toEqual({ left: 100, top: 150, width: 400, height: 200 });
  });
});

describe('TapToPick', () => {
  it('shows the tap step only when the subject needs a focus', () => {
    const { rerender } = renderPick(<Harness subject={oneProduct} />);
    expect(screen.getByAltText('Your product')).toBeTruthy();
    expect(screen.queryByText(TAP_PRODUCT_MESSAGE)).toBeNull();
    expect(screen.queryAllByRole('button')).toHaveLength(0);

    rerender(<Harness subject={twoProducts} />);
    expect(screen.getByText(TAP_PRODUCT_MESSAGE)).toBeTruthy();
    const candidates = screen.getAllByRole('button');
    expect(candidates.map((b) => b.getAttribute('aria-label'))).toEqual(['Object 1 of 2', 'Object 2 of 2']);
    expect(candidates[1]!.style.left).toBe('55%');
    expect(screen.queryByTestId('tap-marker')).toBeNull();
  });

  it('turns a click on a letterboxed photo into fractions of its natural size, marks it, and takes a second tap', () => {
    const picked: Focus[] = [];
    renderPick(<Harness subject={twoProducts} picked={picked} />);
    const img = screen.getByAltText('Your product');
    // A 1200×600 photo shown contained in a 390×390 box: 97.5 px bars above and below.
    layOutImage(img, { left: 0, top: 100, width: 390, height: 390 }, { width: 1200, height: 600 });

    fireEvent.click(img, { clientX: 195, clientY: 150, detail: 1 });
    expect(picked).toEqual([]);

    fireEvent.click(img, { clientX: 97.5, clientY: 295, detail: 1 });
    expect(picked).toEqual([{ x: 0.25, y: 0.5 }]);
    const marker = screen.getByTestId('tap-marker');
    expect([marker.style.left, marker.style.top]).toEqual(['25%', '50%']);
    expect(screen.getByRole('button', { name: 'Object 1 of 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('status').textContent).toContain('Tap again to change it');

    fireEvent.click(screen.getByRole('button', { name: 'Object 2 of 2' }), {
      clientX: 292.5,
      clientY: 275.5,
      detail: 1,
    });
    expect(picked[1]).toEqual({ x: 0.75, y: 0.4 });
    expect(screen.getByTestId('tap-marker').style.left).toBe('75%');
    expect(screen.getByRole('button', { name: 'Object 2 of 2' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("picks a candidate's own point from the keyboard", () => {
    const picked: Focus[] = [];
    renderPick(<Harness subject={twoProducts} picked={picked} />);
    const second = screen.getByRole('button', { name: 'Object 2 of 2' });
    second.focus();
    fireEvent.click(second, { detail: 0 });
    expect(picked).toEqual([{ x: 0.72, y: 0.5 }]);
    expect(second.getAttribute('aria-pressed')).toBe('true');
  });

  it("shows a failed subject's error as a form error, and no tap step", () => {
    const calls = stubApi({});
    renderPick(<Harness subject={failedSubject} />);
    expect(screen.getByRole('alert').textContent).toBe(failedSubject.error);
    expect(screen.getByRole('alert').className).toContain('form-error');
    expect(screen.queryByText(TAP_PRODUCT_MESSAGE)).toBeNull();
    expect(screen.queryByText(TAP_TO_FIND_MESSAGE)).toBeNull();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    // A file with nothing in it to tap takes no tap.
    const img = screen.getByAltText('Your product');
    layOutImage(img, { left: 0, top: 100, width: 390, height: 390 }, { width: 1200, height: 600 });
    fireEvent.click(img, { clientX: 97.5, clientY: 295, detail: 1 });
    expect(calls).toEqual([]);
  });

  it('says it is finding the product while the subject is pending', () => {
    renderPick(<Harness subject={undefined} />);
    expect(screen.getByRole('status').textContent).toBe(FINDING_PRODUCT);
    expect(screen.queryByText(TAP_PRODUCT_MESSAGE)).toBeNull();
  });
});

/** The tap step as a screen uses it: the subject read through the shared cache, so the outline call's answer shows. */
function Finder() {
  const { subject, phase } = useSubject('img-1');
  return (
    <TapToPick src="/photo.png" alt="Your product" subject={subject} phase={phase} focus={null} onFocus={() => {}} />
  );
}

describe('TapToPick on a photo the engine saw no product in', () => {
  /** A click on the middle of the left half of a 1200×600 photo shown in a 390 px box. */
  async function tapLeftMiddle() {
    const img = await screen.findByAltText('Your product');
    await screen.findByText(TAP_TO_FIND_MESSAGE);
    layOutImage(img, { left: 0, top: 100, width: 390, height: 390 }, { width: 1200, height: 600 });
    fireEvent.click(img, { clientX: 97.5, clientY: 295, detail: 1 });
  }

  it('asks the seller to tap their product, sends it as a keep tap, and shows the outline once found', async () => {
    let answer: (value: unknown) => void = () => {};
    const calls = stubApi({
      'GET /images/img-1/subject': () => ({ data: unseenProduct }),
      'POST /images/img-1/outline': () => new Promise((resolve) => (answer = resolve)),
    });
    renderPick(<Finder />);
    expect((await screen.findByRole('alert')).textContent).toBe(unseenProduct.error);
    await tapLeftMiddle();

    await screen.findByText(LOOKING_WHERE_TAPPED);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ focus: [{ x: 0.25, y: 0.5, keep: true }] });
    expect(screen.getByTestId('tap-marker').style.left).toBe('25%');

    answer({
      data: { ...sureOutline, outline: { ...sureOutline.outline!, focus: [{ x: 0.25, y: 0.5, keep: true }] } },
    });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.queryByText(TAP_TO_FIND_MESSAGE)).toBeNull();
    expect(screen.queryByText(LOOKING_WHERE_TAPPED)).toBeNull();
  });

  it('says so when nothing was found where the seller tapped, and takes another tap', async () => {
    const missed = 'Nothing there to cut out: no product could be found where you tapped.';
    const calls = stubApi({
      'GET /images/img-1/subject': () => ({ data: unseenProduct }),
      'POST /images/img-1/outline': () => apiError(422, missed, 'tap_missed'),
    });
    renderPick(<Finder />);
    await tapLeftMiddle();
    await waitFor(() => expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(missed));
    expect(screen.getByText(TAP_TO_FIND_MESSAGE)).toBeTruthy();

    fireEvent.click(screen.getByAltText('Your product'), { clientX: 292.5, clientY: 295, detail: 1 });
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2));
  });
});

describe('mergeSubject', () => {
  it('never moves a finished subject back to pending (a late poll after the socket event)', () => {
    expect(mergeSubject(twoProducts, pendingSubject)).toBe(twoProducts);
    expect(mergeSubject(pendingSubject, twoProducts)).toBe(twoProducts);
    expect(mergeSubject(undefined, pendingSubject)).toBe(pendingSubject);
  });
});
