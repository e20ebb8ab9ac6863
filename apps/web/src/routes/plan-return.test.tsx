import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthStatus } from '../features/auth/auth-context.js';
import { stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import { subscriptionOn } from '../test-support/subscriptions.js';
import { AuthPage } from './auth-page.js';
import { PricingPage } from './pricing.js';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('a signed-out seller who picks a plan', () => {
  it("is sent to sign in with the plan's checkout as the way back, and for an add-on pack too", async () => {
    stubApi({ 'GET /users/subscription': () => subscriptionOn('none') });
    const { router } = renderRoutes(
      [
        { path: '/pricing', element: <PricingPage /> },
        { path: '/sign-in', element: <h1>Sign in</h1> },
      ],
      ['/pricing'],
      { auth: 'signed-out' },
    );
    expect(screen.getByRole('link', { name: 'Buy 500' }).getAttribute('href')).toBe(
      '/sign-in?redirect_url=%2Fcheckout%2Faddon%3Fplan%3Daddon-500',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Choose Pro' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/sign-in?redirect_url=%2Fcheckout%3Fplan%3Dpro',
    );
  });
});

/** The auth page in embedded mode, whose sign-in succeeds as the dev sign-in does. */
function renderAuthWithEmbedded(kind: 'sign-in' | 'sign-up', search: string) {
  const router = createMemoryRouter(
    [
      { path: `/${kind}`, element: <AuthPage kind={kind} /> },
      { path: '/checkout', element: <h1>Checkout</h1> },
      { path: '/dashboard', element: <h1>Dashboard</h1> },
    ],
    { initialEntries: [`/${kind}${search}`] },
  );
  function Session({ children }: { children: ReactNode }) {
    const [status, setStatus] = useState<AuthStatus>('signed-out');
    const signInEmbedded = async () => setStatus('signed-in');
    return (
      <AuthContext.Provider value={{ status, mode: 'embedded', signInEmbedded, signOut: async () => {} }}>
        {children}
      </AuthContext.Provider>
    );
  }
  render(
    <Session>
      <RouterProvider router={router} />
    </Session>,
  );
  return { router };
}

describe('the embedded sign-in and sign-up', () => {
  it('come back to the chosen plan after signing up, and the switch to sign-in keeps it', async () => {
    const { router } = renderAuthWithEmbedded('sign-up', '?redirect_url=%2Fcheckout%3Fplan%3Dpro');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/sign-in?redirect_url=%2Fcheckout%3Fplan%3Dpro',
    );
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeTruthy();
    expect(router.state.location.search).toBe('?plan=pro');
  });

  it.each([['https://evil.example/checkout'], ['//evil.example'], ['/\\evil.example']])(
    'never follow a return path off the site (%s)',
    async (target) => {
      renderAuthWithEmbedded('sign-in', `?redirect_url=${encodeURIComponent(target)}`);
      fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ada@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    },
  );

  it('an already signed-in visitor goes straight to the kept plan', async () => {
    const { router } = renderRoutes(
      [
        { path: '/sign-in', element: <AuthPage kind="sign-in" /> },
        { path: '/checkout', element: <h1>Checkout</h1> },
      ],
      ['/sign-in?redirect_url=%2Fcheckout%3Fplan%3Dgrowth'],
    );
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?plan=growth'));
  });
});
