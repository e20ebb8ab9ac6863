import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './providers.js';
import { appRoutes, preloadPages } from './routes.js';

const router = createBrowserRouter(appRoutes);

export function AppRouter() {
  // After the first render's effects have asked for the client config and the stored session, so
  // those calls go out ahead of the page's chunks, and both arrive together.
  useEffect(() => preloadPages(router.state.matches), []);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
