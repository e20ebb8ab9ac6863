import type { SubscriptionInfo, SubscriptionResponse } from '@prodshot/contracts';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../lib/format.js';
import { stubApi } from '../../test-support/fake-api.js';
import { renderRoutes } from '../../test-support/render-routes.js';
import { QueryToastHost, TOAST_ROOM_VAR } from './query-toast-host.js';
import { TOAST_DURATION_MS, toastFromQuery } from './query-toast.js';

const growthUntil23Dec: SubscriptionInfo = {
  plan: 'growth',
  status: 'active',
  startDate: '2026-11-23T10:00:00.000Z',
  endDate: '2026-12-23T10:00:00.000Z',
  pendingPlan: null,
  cancelAtPeriodEnd: false,
};

const q = (search: string, subscription?: SubscriptionInfo) =>
  toastFromQuery(new URLSearchParams(search), subscription);

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

  it('says when a scheduled plan change takes effect instead of calling it an upgrade', () => {
    const toPro = { ...growthUntil23Dec, pendingPlan: 'pro' as const };
    expect(q('subscription=success', toPro)?.description).toBe(
      `Your plan changes to Pro on ${formatDate(toPro.endDate)}.`,
    );
    expect(q('subscription_status=success&plan=pro', toPro)?.description).toBe(
      `Your plan changes to Pro on ${formatDate(toPro.endDate)}.`,
    );
    // A first plan starts at once: that is an upgrade.
    expect(q('subscription_status=success&plan=growth', growthUntil23Dec)?.description).toBe(
      'Your account has been upgraded to the Growth Plan.',
    );
  });

  it('handles add-on returns and ignores unrelated queries', () => {
    expect(q('addon=success')?.type).toBe('success');
    expect(q('addon_status=success&plan=addon-100')?.type).toBe('success');
    expect(q('tab=uploads')).toBeNull();
  });
});

describe('QueryToastHost', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function renderAt(url: string, auth: 'signed-in' | 'signed-out' = 'signed-out') {
    return renderRoutes([{ path: '/dashboard', element: <QueryToastHost /> }], [url], { auth }).router;
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

  it('leaves room under the page for the toast while it shows, and gives it back when it goes', () => {
    renderAt('/dashboard?addon=success');
    const room = () => document.documentElement.style.getPropertyValue(TOAST_ROOM_VAR);
    expect(screen.getByText('Credits Added!')).toBeTruthy();
    expect(room()).toMatch(/^\d+px$/);
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(room()).toBe('');
  });

  it('reads the subscription again before telling of a plan change, and names its date', async () => {
    const subscription: SubscriptionResponse = {
      subscription: { ...growthUntil23Dec, pendingPlan: 'pro' },
      subscriptionCredits: 800,
      addOnCredits: 0,
      currentPlan: 'growth',
      isActive: true,
      effectivePlan: 'growth',
    };
    stubApi({ 'GET /users/subscription': () => subscription });
    renderAt('/dashboard?subscription=success', 'signed-in');
    expect(screen.queryByText('Subscription Successful!')).toBeNull();
    expect(
      await screen.findByText(`Your plan changes to Pro on ${formatDate(growthUntil23Dec.endDate)}.`),
    ).toBeTruthy();
    expect(screen.queryByText(/upgraded/)).toBeNull();
  });

  it('shows nothing without toast parameters', () => {
    renderAt('/dashboard');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
