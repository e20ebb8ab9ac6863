import type { ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { ProtectedRoute } from '../features/auth/protected-route.js';
import { AllGenerationsPage } from '../routes/all-generations.js';
import { AllUploadsPage } from '../routes/all-uploads.js';
import { AuthPage } from '../routes/auth-page.js';
import { CheckoutAddonPage } from '../routes/checkout-addon.js';
import { CheckoutPage } from '../routes/checkout.js';
import { DashboardPage } from '../routes/dashboard.js';
import { EditorPage } from '../routes/editor.js';
import { HomePage } from '../routes/home.js';
import { PrivacyPolicyPage, TermsOfServicePage } from '../routes/legal.js';
import { NotFoundPage } from '../routes/not-found.js';
import { PricingPage } from '../routes/pricing.js';
import { ProfilePage } from '../routes/profile.js';
import { SmartResultsEntry, SmartResultsPage } from '../routes/smart-results.js';
import { SmartRunPage } from '../routes/smart-run.js';
import { SmartUploadPage } from '../routes/smart-upload.js';
import { SuccessPage } from '../routes/success.js';
import { Layout } from './layout.js';
import { AppProviders } from './providers.js';

const guard = (page: ReactNode) => <ProtectedRoute>{page}</ProtectedRoute>;

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/pricing', element: <PricingPage /> },
      { path: '/terms-of-service', element: <TermsOfServicePage /> },
      { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
      // Clerk's hosted forms route their own steps under these paths.
      { path: '/sign-in/*', element: <AuthPage kind="sign-in" /> },
      { path: '/sign-up/*', element: <AuthPage kind="sign-up" /> },
      { path: '/dashboard', element: guard(<DashboardPage />) },
      { path: '/editor', element: guard(<EditorPage />) },
      { path: '/profile', element: guard(<ProfilePage />) },
      { path: '/checkout', element: guard(<CheckoutPage />) },
      { path: '/checkout/addon', element: guard(<CheckoutAddonPage />) },
      { path: '/success', element: guard(<SuccessPage />) },
      { path: '/all-uploads', element: guard(<AllUploadsPage />) },
      { path: '/all-generations', element: guard(<AllGenerationsPage />) },
      { path: '/smart-upload', element: guard(<SmartUploadPage />) },
      { path: '/smart/:generationId', element: guard(<SmartRunPage />) },
      { path: '/smart-results', element: guard(<SmartResultsEntry />) },
      { path: '/smart-results/:generationId', element: guard(<SmartResultsPage />) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
