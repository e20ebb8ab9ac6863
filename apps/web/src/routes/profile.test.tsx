import type { SubscriptionInfo, SubscriptionResponse } from '@prodshot/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.js';
import { apiError, networkFailure, stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { ProfilePage } from './profile.js';

const endDate = '2026-12-23T10:00:00.000Z';
const growth: SubscriptionInfo = {
  plan: 'growth',
  status: 'active',
  startDate: '2026-11-23T10:00:00.000Z',
  endDate,
  pendingPlan: null,
  cancelAtPeriodEnd: false,
};

function renderProfile(
  subscription: SubscriptionInfo,
  portal: () => unknown = () => apiError(404, 'No billing account found', 'no_billing_account'),
  cancel: () => unknown = () => apiError(500, 'not expected'),
  extra: Partial<SubscriptionResponse> = {},
) {
  const response: SubscriptionResponse = {
    subscription,
    subscriptionCredits: 700,
    addOnCredits: 0,
    currentPlan: subscription.plan,
    isActive: subscription.status === 'active',
    effectivePlan: subscription.plan,
    ...extra,
  };
  const calls = stubApi({
    'GET /users/profile': () => ({ id: 'u1', name: 'Ada Seller', email: 'ada@example.com' }),
    'GET /users/subscription': () => response,
    'GET /images': () => ({ data: [] }),
    'GET /keys': () => ({ data: [] }),
    'GET /webhooks': () => ({ data: [] }),
    'POST /payments/portal-session': portal,
    'POST /payments/cancel-subscription': cancel,
  });
  const { router } = renderRoutes(
    [
      { path: '/profile', element: <ProfilePage /> },
      { path: '/pricing', element: <h1>Pricing</h1> },
    ],
    ['/profile'],
  );
  return { calls, router };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProfilePage subscription', () => {
  it('shows the plan that takes over and the date it does', async () => {
    renderProfile({ ...growth, pendingPlan: 'pro' });
    expect((await screen.findByTestId('plan-change')).textContent).toBe(
      `Changes to Pro Plan on ${formatDate(endDate)}`,
    );
    expect(screen.getByTestId('profile-plan').textContent).toBe('Growth Plan');
    expect(screen.getByText('Renews')).toBeTruthy();
  });

  it('tells the seller that a second subscription was cancelled and refunded', async () => {
    const cancelledAt = '2026-11-24T09:30:00.000Z';
    renderProfile(growth, undefined, undefined, {
      cancelledSecondSubscription: { plan: 'pro', cancelledAt, refunded: true },
    });
    expect((await screen.findByTestId('cancelled-second-subscription')).textContent).toBe(
      `A second Pro Plan subscription was started on ${formatDate(cancelledAt)}. It was cancelled at once and its payment refunded. You keep your current plan.`,
    );
  });

  it('says a second subscription that was never charged was cancelled', async () => {
    renderProfile(growth, undefined, undefined, {
      cancelledSecondSubscription: { plan: 'growth', cancelledAt: '2026-11-24T09:30:00.000Z', refunded: false },
    });
    expect((await screen.findByTestId('cancelled-second-subscription')).textContent).toContain(
      'It was cancelled at once; it had not been charged.',
    );
  });

  it('shows no such line to a seller who never had a second subscription', async () => {
    renderProfile(growth, undefined, undefined, { cancelledSecondSubscription: null });
    expect(await screen.findByTestId('profile-plan')).toBeTruthy();
    expect(screen.queryByTestId('cancelled-second-subscription')).toBeNull();
  });

  it('shows until when a cancelled plan lasts', async () => {
    renderProfile({ ...growth, status: 'canceled', cancelAtPeriodEnd: true });
    expect((await screen.findByTestId('plan-change')).textContent).toBe(`Ends on ${formatDate(endDate)}`);
    expect(screen.getByText('Ends')).toBeTruthy();
  });

  it('opens the billing portal from Manage Plan, and goes to /pricing for a seller without a billing account', async () => {
    const { calls, router } = renderProfile(growth);
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Plan' }));
    expect(await screen.findByRole('heading', { name: 'Pricing' })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/payments/portal-session']);
    expect(router.state.location.pathname).toBe('/pricing');
  });

  it('goes to /pricing when the billing page the provider names is this one (the local provider)', async () => {
    const { router } = renderProfile(growth, () => ({ data: { url: `${window.location.origin}/profile` } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Plan' }));
    expect(await screen.findByRole('heading', { name: 'Pricing' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pricing');
  });

  it('says so when the billing page cannot be opened', async () => {
    renderProfile(growth, () => apiError(500, 'Stripe is down'));
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Plan' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not open your billing page. Please try again.');
  });
});

describe('ProfilePage cancel (docs/product-spec.md §8: Cancel, and the cancel helper beneath it)', () => {
  async function cancelWith(answer: () => unknown) {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderProfile(growth, undefined, answer);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const alert = await screen.findByRole('alert');
    const helperError = logged.mock.calls.find(([what]) => what === 'cancel subscription failed')?.[1] as
      Error | undefined;
    logged.mockRestore();
    return { text: alert.textContent, helperMessage: helperError?.message };
  }

  it("logs the helper's 'Server error: {status}' for an HTTP error without a message, and shows the screen's message", async () => {
    expect(await cancelWith(() => new Response('', { status: 502, statusText: 'Bad Gateway' }))).toEqual({
      text: 'Failed to cancel subscription. Please try again.',
      helperMessage: 'Server error: 502',
    });
  });

  it("shows 'No active subscription found' when the server says so", async () => {
    expect(await cancelWith(() => apiError(404, 'No active subscription found', 'no_active_subscription'))).toEqual({
      text: 'No active subscription found',
      helperMessage: 'No active subscription found',
    });
  });

  it('shows the screen message when no answer came back at all', async () => {
    expect((await cancelWith(networkFailure)).text).toBe('Failed to cancel subscription. Please try again.');
  });
});
