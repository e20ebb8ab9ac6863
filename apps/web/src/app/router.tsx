import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Layout } from './layout.js';
import { HomePage } from '../routes/home.js';
import { NotFoundPage } from '../routes/not-found.js';

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
