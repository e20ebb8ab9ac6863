import type { SubscriptionResponse } from '@prodshot/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.js';
import { apiError, stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { Layout } from './layout.js';

const endDate = '2026-12-23T10:00:00.000Z';
const toPro: SubscriptionResponse = {
  subscription: { plan: 'growth', status: 'active', startDate: '2026-11-23T10:00:00.000Z', endDate, pendingPlan: 'pro', cancelAtPeriodEnd: false },
  subscriptionCredits: 700,
  addOnCredits: 100,
  currentPlan: 'growth',
  isActive: true,
};

function renderLayout(portal: () => unknown) {
  stubApi({
    'GET /users/subscription': () => toPro,
    'GET /users/profile': () => ({ id: 'u1', name: 'Ada Seller', email: 'ada@example.com' }),
    'POST /payments/portal-session': portal,
  });
  return renderRoutes(
    [
      {
        element: <Layout />,
        children: ['/dashboard', '/profile', '/checkout'].map((path) => ({ path, element: <h1>{`Page ${path}`}</h1> })),
      },
    ],
    ['/dashboard'],
  ).router;
}

beforeEach(() => {
  // jsdom does not scroll.
  window.scrollTo = () => undefined;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Layout mobile menu', () => {
  it('shows the plan, the one that takes over and its date', async () => {
    renderLayout(() => ({ data: { url: '/profile' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('navigation', { name: 'Mobile' });
    expect(await screen.findByText('Growth Plan')).toBeTruthy();
    expect(menu.querySelector('[data-testid="plan-change"]')?.textContent).toBe(`Changes to Pro Plan on ${formatDate(endDate)}`);
  });

  it("opens the billing portal from 'Manage Plan'", async () => {
    const router = renderLayout(() => ({ data: { url: `${window.location.origin}/profile` } }));
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    fireEvent.click(screen.getByRole('button', { name: 'Manage Plan' }));
    expect(await screen.findByRole('heading', { name: 'Page /profile' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
  });

  it("keeps the spec's /checkout for a seller without a billing account", async () => {
    const router = renderLayout(() => apiError(404, 'No billing account found', 'no_billing_account'));
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    fireEvent.click(screen.getByRole('button', { name: 'Manage Plan' }));
    expect(await screen.findByRole('heading', { name: 'Page /checkout' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/checkout');
  });
});
