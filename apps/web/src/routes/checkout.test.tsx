import { alreadySubscribedMessage, type SubscriptionResponse } from '@prodshot/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { apiError, networkFailure, stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { subscriptionOn } from '../test-support/subscriptions.js';
import { CheckoutAddonPage } from './checkout-addon.js';
import { CheckoutPage } from './checkout.js';

const noPlan: SubscriptionResponse = {
  subscription: {
    plan: 'none',
    status: 'none',
    startDate: null,
    endDate: null,
    pendingPlan: null,
    cancelAtPeriodEnd: false,
  },
  subscriptionCredits: 0,
  addOnCredits: 0,
  currentPlan: 'none',
  isActive: false,
  effectivePlan: 'none',
};

const SCREEN_MESSAGE = 'There was an error processing your payment. Please try again.';

function renderCheckout(path: string, answer: () => unknown, route: string) {
  stubApi({
    'GET /users/subscription': () => noPlan,
    'GET /users/profile': () => ({ id: 'u1', name: 'Ada Seller', email: 'ada@example.com' }),
    [route]: answer,
  });
  renderRoutes(
    [
      { path: '/checkout', element: <CheckoutPage /> },
      { path: '/checkout/addon', element: <CheckoutAddonPage /> },
    ],
    [path],
  );
}

async function pay(path: string, answer: () => unknown, route = 'POST /payments/subscription') {
  renderCheckout(path, answer, route);
  fireEvent.click(await screen.findByRole('button', { name: /^(Subscribe to|Buy Credits)/ }));
  const alert = await screen.findByRole('alert');
  return { alert, reason: screen.queryByTestId('payment-error-reason')?.textContent ?? null };
}

let logged: MockInstance<typeof console.error>;
beforeEach(() => {
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  logged.mockRestore();
});

describe('Checkout errors (docs/product-spec.md §8: Checkout, and the create-subscription helper beneath it)', () => {
  it("shows the server's message when the payment server gives one", async () => {
    const { alert, reason } = await pay('/checkout?plan=growth', () => apiError(409, 'Your card was declined'));
    expect(alert.textContent).toContain(SCREEN_MESSAGE);
    expect(reason).toBe('Your card was declined');
  });

  it("reads 'Server error: {status}' for an HTTP error without a message", async () => {
    const { alert, reason } = await pay(
      '/checkout?plan=growth',
      () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
    );
    expect(alert.textContent).toContain(SCREEN_MESSAGE);
    expect(reason).toBe('Server error: 502');
  });

  it("reads 'No response received from payment server' when no answer came back at all", async () => {
    const { alert, reason } = await pay('/checkout?plan=growth', networkFailure);
    expect(alert.textContent).toContain(SCREEN_MESSAGE);
    expect(reason).toBe('No response received from payment server');
    expect(logged).toHaveBeenCalledWith(
      'payment failed',
      expect.objectContaining({ message: 'No response received from payment server' }),
    );
  });

  it("reads 'Error creating subscription' for an answer without its payment link", async () => {
    const { reason } = await pay(
      '/checkout?plan=growth',
      () => new Response('<html>proxy page</html>', { status: 200 }),
    );
    expect(reason).toBe('Error creating subscription');
  });

  it('tells the same on the add-on page, whose helper is analogous', async () => {
    const { alert, reason } = await pay('/checkout/addon?plan=addon-100', networkFailure, 'POST /payments/credits');
    expect(alert.textContent).toContain(SCREEN_MESSAGE);
    expect(reason).toBe('No response received from payment server');
  });
});

describe('Checkout on local payments (keyless mode): granted at once, no payment link', () => {
  it("keeps 'Redirecting to Payment...' up until it leaves, and never shows the new subscriber 'already subscribed'", async () => {
    let subscribed = false;
    stubApi({
      'GET /users/subscription': () => (subscribed ? subscriptionOn('growth') : noPlan),
      'GET /users/profile': () => ({ id: 'u1', name: 'Ada Seller', email: 'ada@example.com' }),
      'POST /payments/subscription': () => {
        subscribed = true;
        return { payment_link: null };
      },
    });
    const { router } = renderRoutes(
      [
        { path: '/checkout', element: <CheckoutPage /> },
        { path: '/dashboard', element: <h1>Dashboard</h1> },
      ],
      ['/checkout?plan=growth'],
    );
    const seen: string[] = [];
    const watch = new MutationObserver(() => seen.push(document.body.textContent ?? ''));
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });

    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to Growth' }));
    await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 2000 });
    watch.disconnect();
    expect(router.state.location.pathname).toBe('/dashboard');
    // Every state the screen went through, as the observer saw each change.
    expect(seen.some((text) => text.includes('Redirecting to Payment...'))).toBe(true);
    expect(
      seen.filter((text) => text.includes(alreadySubscribedMessage('growth')) || text.includes('takes effect')),
    ).toEqual([]);
  }, 10_000);
});
