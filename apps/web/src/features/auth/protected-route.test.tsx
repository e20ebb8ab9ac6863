import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AuthContext, type AuthStatus } from './auth-context.js';
import { ProtectedRoute } from './protected-route.js';

function renderAt(status: AuthStatus, url: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/profile',
        element: (
          <ProtectedRoute>
            <h1>Profile page</h1>
          </ProtectedRoute>
        ),
      },
      { path: '/sign-in', element: <h1>Sign-in page</h1> },
    ],
    { initialEntries: [url] },
  );
  render(
    <AuthContext.Provider value={{ status, mode: 'embedded', signOut: async () => {} }}>
      <RouterProvider router={router} />
    </AuthContext.Provider>,
  );
  return router;
}

describe('ProtectedRoute', () => {
  it('sends a signed-out visitor to /sign-in, passing the original location along', () => {
    const router = renderAt('signed-out', '/profile?tab=plan#usage');
    expect(screen.getByRole('heading', { name: 'Sign-in page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(new URLSearchParams(router.state.location.search).get('redirect_url')).toBe('/profile?tab=plan#usage');
    expect((router.state.location.state as { from: { pathname: string } }).from.pathname).toBe('/profile');
  });

  it('shows a spinner, not the page, while authentication loads', () => {
    const router = renderAt('loading', '/profile');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Profile page' })).toBeNull();
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('renders the page for a signed-in user', () => {
    renderAt('signed-in', '/profile');
    expect(screen.getByRole('heading', { name: 'Profile page' })).toBeTruthy();
  });
});
