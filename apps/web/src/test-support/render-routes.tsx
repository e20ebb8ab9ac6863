import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type InitialEntry, type RouteObject } from 'react-router-dom';
import { AuthContext, type AuthStatus } from '../features/auth/auth-context.js';

/**
 * Renders routes in a memory router with a fresh query cache and a session, as the app runs them.
 * `initialIndex` picks the current history entry, so tests can go Back and Forward through the rest.
 */
export function renderRoutes(
  routes: RouteObject[],
  initialEntries: InitialEntry[],
  options: { initialIndex?: number; auth?: AuthStatus } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries, initialIndex: options.initialIndex });
  const view = render(
    <AuthContext.Provider value={{ status: options.auth ?? 'signed-in', mode: 'embedded', signOut: async () => {} }}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AuthContext.Provider>,
  );
  return { router, queryClient, unmount: view.unmount };
}
