import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryToastHost } from './query-toast-host.js';
import { TOAST_DURATION_MS, toastFromQuery } from './query-toast.js';

const q = (search: string) => toastFromQuery(new URLSearchParams(search));

describe('toastFromQuery', () => {
  it('words subscription success with and without a plan, with details only when there is an id', () => {
    expect(q('subscription_status=success&plan=growth')).toEqual({
      type: 'success',
      title: 'Subscription Successful!',
      description: 'Your account has been upgraded to the Growth Plan.',
    });
    expect(q('subscription=success')?.description).toBe('Your account has been upgraded successfully.');
    expect(q('status=active&plan=pro&subscription_id=sub_1')?.details).toBe('Subscription ID: sub_1 • Status: active');
  });

  it('words subscription failure', () => {
    expect(q('subscription_status=failed&plan=starter')).toEqual({
      type: 'error',
      title: 'Subscription Failed',
      description: 'There was a problem processing your subscription to the Starter Plan.',
      details: 'Please try again or contact support if the issue persists.',
    });
    expect(q('status=failed&plan=starter&subscription_id=sub_2')?.details).toBe('Subscription ID: sub_2');
  });

  it('handles add-on returns and ignores unrelated queries', () => {
    expect(q('addon=success')?.type).toBe('success');
    expect(q('addon_status=success&plan=addon-100')?.type).toBe('success');
    expect(q('tab=uploads')).toBeNull();
  });
});

describe('QueryToastHost', () => {
  afterEach(() => vi.useRealTimers());

  function renderAt(url: string) {
    const router = createMemoryRouter([{ path: '/dashboard', element: <QueryToastHost /> }], { initialEntries: [url] });
    render(<RouterProvider router={router} />);
    return router;
  }

  it('shows the toast, then hides it and clears the query after 10 s, keeping other parameters', () => {
    vi.useFakeTimers();
    const router = renderAt('/dashboard?subscription_status=success&plan=growth&keep=1');
    expect(screen.getByText('Subscription Successful!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.getByText('Subscription Successful!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Subscription Successful!')).toBeNull();
    expect(router.state.location.search).toBe('?keep=1');
  });

  it('closes at once from its close button', () => {
    const router = renderAt('/dashboard?subscription=success');
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByText('Subscription Successful!')).toBeNull();
    expect(router.state.location.search).toBe('');
  });

  it('shows nothing without toast parameters', () => {
    renderAt('/dashboard');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
