import type { SubscriptionInfo, SubscriptionResponse } from '@prodshot/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.js';
import { apiError, stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { ProfilePage } from './profile.js';

const endDate = '2026-12-23T10:00:00.000Z';
const growth: SubscriptionInfo = { plan: 'growth', status: 'active', startDate: '2026-11-23T10:00:00.000Z', endDate, pendingPlan: null, cancelAtPeriodEnd: false };

function renderProfile(subscription: SubscriptionInfo, portal: () => unknown = () => apiError(404, 'No billing account found', 'no_billing_account')) {
  const response: SubscriptionResponse = { subscription, subscriptionCredits: 700, addOnCredits: 0, currentPlan: subscription.plan, isActive: subscription.status === 'active', effectivePlan: subscription.plan };
  const calls = stubApi({
    'GET /users/profile': () => ({ id: 'u1', name: 'Ada Seller', email: 'ada@example.com' }),
    'GET /users/subscription': () => response,
    'GET /images': () => ({ data: [] }),
    'POST /payments/portal-session': portal,
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
    expect((await screen.findByTestId('plan-change')).textContent).toBe(`Changes to Pro Plan on ${formatDate(endDate)}`);
    expect(screen.getByTestId('profile-plan').textContent).toBe('Growth Plan');
    expect(screen.getByText('Renews')).toBeTruthy();
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
