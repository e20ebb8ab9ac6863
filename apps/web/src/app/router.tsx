import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './providers.js';
import { appRoutes } from './routes.js';

const router = createBrowserRouter(appRoutes);

export function AppRouter() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
