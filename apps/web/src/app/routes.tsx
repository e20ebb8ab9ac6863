import { lazy, type ComponentType, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { ProtectedRoute } from '../features/auth/protected-route.js';
import { Layout } from './layout.js';
import type { RouteHandle } from './route-effects.js';

/**
 * Each page is its own chunk, fetched when its route is first shown: a visitor to / downloads the
 * home page and the chrome, and the signed-in screens load only behind ProtectedRoute, after sign-in.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}

const HomePage = page(() => import('../routes/home.js'), (m) => m.HomePage);
const PricingPage = page(() => import('../routes/pricing.js'), (m) => m.PricingPage);
const TermsOfServicePage = page(() => import('../routes/legal.js'), (m) => m.TermsOfServicePage);
const PrivacyPolicyPage = page(() => import('../routes/legal.js'), (m) => m.PrivacyPolicyPage);
const SignInPage = page(() => import('../routes/auth-page.js'), (m) => () => <m.AuthPage kind="sign-in" />);
const SignUpPage = page(() => import('../routes/auth-page.js'), (m) => () => <m.AuthPage kind="sign-up" />);
const NotFoundPage = page(() => import('../routes/not-found.js'), (m) => m.NotFoundPage);
const DashboardPage = page(() => import('../routes/dashboard.js'), (m) => m.DashboardPage);
const EditorPage = page(() => import('../routes/editor.js'), (m) => m.EditorPage);
const ProfilePage = page(() => import('../routes/profile.js'), (m) => m.ProfilePage);
const CheckoutPage = page(() => import('../routes/checkout.js'), (m) => m.CheckoutPage);
const CheckoutAddonPage = page(() => import('../routes/checkout-addon.js'), (m) => m.CheckoutAddonPage);
const SuccessPage = page(() => import('../routes/success.js'), (m) => m.SuccessPage);
const AllUploadsPage = page(() => import('../routes/all-uploads.js'), (m) => m.AllUploadsPage);
const AllGenerationsPage = page(() => import('../routes/all-generations.js'), (m) => m.AllGenerationsPage);
const SmartUploadPage = page(() => import('../routes/smart-upload.js'), (m) => m.SmartUploadPage);
const SmartRunPage = page(() => import('../routes/smart-run.js'), (m) => m.SmartRunPage);
const SmartResultsEntry = page(() => import('../routes/smart-results.js'), (m) => m.SmartResultsEntry);
const SmartResultsPage = page(() => import('../routes/smart-results.js'), (m) => m.SmartResultsPage);
const NewBatchPage = page(() => import('../routes/batch.js'), (m) => m.NewBatchPage);
const BatchPage = page(() => import('../routes/batch.js'), (m) => m.BatchPage);

const guard = (element: ReactNode) => <ProtectedRoute>{element}</ProtectedRoute>;
const titled = (title: string): { handle: RouteHandle } => ({ handle: { title } });

export const appRoutes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage />, ...titled('Studio-quality product shots from an ordinary photo') },
      { path: '/pricing', element: <PricingPage />, ...titled('Pricing') },
      { path: '/terms-of-service', element: <TermsOfServicePage />, ...titled('Terms of Service') },
      { path: '/privacy-policy', element: <PrivacyPolicyPage />, ...titled('Privacy Policy') },
      // The short addresses people type, and older links use.
      { path: '/terms', element: <Navigate to="/terms-of-service" replace /> },
      { path: '/privacy', element: <Navigate to="/privacy-policy" replace /> },
      // Clerk's hosted forms route their own steps under these paths.
      { path: '/sign-in/*', element: <SignInPage />, ...titled('Sign in') },
      { path: '/sign-up/*', element: <SignUpPage />, ...titled('Sign up') },
      { path: '/dashboard', element: guard(<DashboardPage />), ...titled('Dashboard') },
      { path: '/editor', element: guard(<EditorPage />), ...titled('Editor') },
      { path: '/profile', element: guard(<ProfilePage />), ...titled('Profile') },
      { path: '/checkout', element: guard(<CheckoutPage />), ...titled('Checkout') },
      { path: '/checkout/addon', element: guard(<CheckoutAddonPage />), ...titled('Buy credits') },
      { path: '/success', element: guard(<SuccessPage />), ...titled('Payment successful') },
      { path: '/all-uploads', element: guard(<AllUploadsPage />), ...titled('All uploads') },
      { path: '/all-generations', element: guard(<AllGenerationsPage />), ...titled('All generations') },
      { path: '/smart-upload', element: guard(<SmartUploadPage />), ...titled('Smart upload') },
      { path: '/smart/:generationId', element: guard(<SmartRunPage />), ...titled('Smart generation') },
      { path: '/smart-results', element: guard(<SmartResultsEntry />) },
      { path: '/smart-results/:generationId', element: guard(<SmartResultsPage />), ...titled('Your product shots') },
      { path: '/batches/new', element: guard(<NewBatchPage />), ...titled('New batch') },
      { path: '/batches/:batchId', element: guard(<BatchPage />), ...titled('Your batch') },
      { path: '*', element: <NotFoundPage />, ...titled('Page not found') },
    ],
  },
];
