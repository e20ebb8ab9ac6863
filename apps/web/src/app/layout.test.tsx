import type { SubscriptionResponse } from '@prodshot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../lib/format.js';
import { apiError, stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { Layout } from './layout.js';

const endDate = '2026-12-23T10:00:00.000Z';
const toPro: SubscriptionResponse = {
  subscription: {
    plan: 'growth',
    status: 'active',
    startDate: '2026-11-23T10:00:00.000Z',
    endDate,
    pendingPlan: 'pro',
    cancelAtPeriodEnd: false,
  },
  subscriptionCredits: 700,
  addOnCredits: 100,
  currentPlan: 'growth',
  isActive: true,
  effectivePlan: 'growth',
};

function renderLayout(portal: () => unknown, subscription: () => unknown = () => toPro) {
  stubApi({
    'GET /users/subscription': subscription,
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
    expect(menu.querySelector('[data-testid="plan-change"]')?.textContent).toBe(
      `Changes to Pro Plan on ${formatDate(endDate)}`,
    );
  });

  it("opens the billing portal from 'Manage Plan'", async () => {
    const router = renderLayout(() => ({ data: { url: `${window.location.origin}/profile` } }));
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Manage Plan' }));
    expect(await screen.findByRole('heading', { name: 'Page /profile' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
  });

  it("keeps focus on 'Manage Plan' while the portal opens, and a second click asks for no second session", async () => {
    let requests = 0;
    renderLayout(() => {
      requests += 1;
      return new Promise(() => undefined);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const manage = screen.getByRole('menuitem', { name: 'Manage Plan' });
    manage.focus();
    fireEvent.click(manage);
    const opening = await screen.findByRole('menuitem', { name: 'Opening…' });
    expect(opening.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(opening);
    fireEvent.click(opening);
    // Long enough for a second request to reach fetch, had the click sent one.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toBe(1);
  });

  it("keeps the spec's /checkout for a seller without a billing account", async () => {
    const router = renderLayout(() => apiError(404, 'No billing account found', 'no_billing_account'));
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Manage Plan' }));
    expect(await screen.findByRole('heading', { name: 'Page /checkout' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/checkout');
  });
});

/** The toggle, the menu's items in order, and the item that has focus. */
function menuState(toggleName: RegExp | string) {
  const toggle = screen.getByRole('button', { name: toggleName });
  const items = screen.queryAllByRole('menuitem');
  return { toggle, items, focused: items.indexOf(document.activeElement as HTMLElement) };
}

describe('Layout menus (WAI-ARIA menu button)', () => {
  it('moves focus into the mobile menu on open; arrows, Home and End move it; Escape closes it and returns focus to the toggle', () => {
    renderLayout(() => ({ data: { url: '/profile' } }));
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    toggle.focus();
    fireEvent.click(toggle);
    const { items } = menuState('Close menu');
    expect(items.map((item) => item.textContent)).toEqual([
      'Home',
      'Pricing',
      'Dashboard',
      'Manage Plan',
      'Buy Credits',
      'Profile',
      'Sign out',
    ]);
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(menuState('Close menu').focused).toBe(1);
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(menuState('Close menu').focused).toBe(items.length - 1);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(menuState('Close menu').focused).toBe(0);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(menuState('Close menu').focused).toBe(items.length - 1);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(menuState('Close menu').focused).toBe(0);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open menu' }));
  });

  it('closes the mobile menu when focus leaves it', () => {
    renderLayout(() => ({ data: { url: '/profile' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const [first] = menuState('Close menu').items;
    fireEvent.blur(first!, { relatedTarget: screen.getByRole('link', { name: 'Terms of Service' }) });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('names the avatar by its visible initials and opens the user menu from the keyboard', async () => {
    renderLayout(() => ({ data: { url: '/profile' } }));
    const avatar = await screen.findByRole('button', { name: 'AS user menu' });
    expect(avatar.getAttribute('aria-label')).toBeNull();
    avatar.focus();
    fireEvent.keyDown(avatar, { key: 'ArrowUp' });
    const menu = screen.getByRole('menu', { name: 'User menu' });
    const items = Array.from(menu.querySelectorAll('[role="menuitem"]'));
    expect(items.map((item) => item.textContent)).toEqual(['Profile', 'All uploads', 'Sign out']);
    expect(document.activeElement).toBe(items.at(-1));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(avatar);
  });
});

describe('Layout credit counter when the credits fetch fails (docs/product-spec.md §8)', () => {
  it("ends loading, logs the error and shows no message, instead of '...' forever", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderLayout(
      () => ({ data: { url: '/profile' } }),
      () => apiError(500, 'Database unavailable'),
    );
    expect(screen.getByTestId('credit-total').textContent).toBe('...');
    await waitFor(() => expect(screen.getByTestId('credit-total').textContent).toBe('0'));
    expect(logged).toHaveBeenCalledWith(
      'Failed to load credits',
      expect.objectContaining({ message: 'Database unavailable' }),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.mouseEnter(screen.getByTestId('credit-total').closest('.credit-counter')!);
    expect(screen.getByRole('tooltip').textContent).toContain('No Subscription');
    expect(screen.queryByText('Loading credits...')).toBeNull();
    logged.mockRestore();
  });
});
