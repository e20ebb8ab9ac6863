import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.js';
import { ProtectedRoute } from '../features/auth/protected-route.js';
/*
 * The dashboard ships with the entry, not as a chunk: every sign-in lands there, and on a phone its
 * own chunk and the 14 small ones it shares with other pages took a second wave of round trips
 * after the entry had run (LCP 2.7-2.9 s against 2.4 s, bench:web). It adds about 9 kB (brotli) to
 * the public pages' first download, and the other signed-in pages find the shared code there.
 */
import { DashboardPage } from '../routes/dashboard.js';
import { Layout } from './layout.js';
import type { RouteHandle } from './route-effects.js';

/** A page's component, and a way to start fetching its chunk before the page is first shown. */
type Page = ComponentType & { preload?: () => Promise<unknown> };

/**
 * Each page but the dashboard is its own chunk, fetched when its route is first shown: a visitor to
 * / downloads the home page and the chrome, and the other signed-in screens load only behind
 * ProtectedRoute, after sign-in.
 * Not through lazy(): a page suspending would have React hold its reveal back (up to 300 ms after
 * the fallback showed), and a page whose chunk is already here (preloaded) renders at once.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Page {
  let loaded: ComponentType | undefined;
  const preload = () => load().then((module) => (loaded ??= pick(module)));
  function Page() {
    const [Shown, setShown] = useState(() => loaded);
    const [failure, setFailure] = useState<{ error: unknown } | null>(null);
    useEffect(() => {
      if (Shown) return;
      let left = false;
      preload().then(
        (component) => !left && setShown(() => component),
        (error: unknown) => !left && setFailure({ error }),
      );
      return () => {
        left = true;
      };
    }, [Shown]);
    // A chunk that failed to load goes to the route's error boundary, as a failed lazy() did.
    if (failure) throw failure.error;
    return Shown ? <Shown /> : <Spinner label="Loading the page" fullPage />;
  }
  return Object.assign(Page, { preload });
}

const HomePage = page(
  () => import('../routes/home.js'),
  (m) => m.HomePage,
);
const PricingPage = page(
  () => import('../routes/pricing.js'),
  (m) => m.PricingPage,
);
const TermsOfServicePage = page(
  () => import('../routes/legal.js'),
  (m) => m.TermsOfServicePage,
);
const PrivacyPolicyPage = page(
  () => import('../routes/legal.js'),
  (m) => m.PrivacyPolicyPage,
);
const SignInPage = page(
  () => import('../routes/auth-page.js'),
  (m) => () => <m.AuthPage kind="sign-in" />,
);
const SignUpPage = page(
  () => import('../routes/auth-page.js'),
  (m) => () => <m.AuthPage kind="sign-up" />,
);
const NotFoundPage = page(
  () => import('../routes/not-found.js'),
  (m) => m.NotFoundPage,
);
const EditorPage = page(
  () => import('../routes/editor.js'),
  (m) => m.EditorPage,
);
const ProfilePage = page(
  () => import('../routes/profile.js'),
  (m) => m.ProfilePage,
);
const CheckoutPage = page(
  () => import('../routes/checkout.js'),
  (m) => m.CheckoutPage,
);
const CheckoutAddonPage = page(
  () => import('../routes/checkout-addon.js'),
  (m) => m.CheckoutAddonPage,
);
const SuccessPage = page(
  () => import('../routes/success.js'),
  (m) => m.SuccessPage,
);
const AllUploadsPage = page(
  () => import('../routes/all-uploads.js'),
  (m) => m.AllUploadsPage,
);
const AllGenerationsPage = page(
  () => import('../routes/all-generations.js'),
  (m) => m.AllGenerationsPage,
);
const SmartUploadPage = page(
  () => import('../routes/smart-upload.js'),
  (m) => m.SmartUploadPage,
);
const SmartRunPage = page(
  () => import('../routes/smart-run.js'),
  (m) => m.SmartRunPage,
);
const SmartResultsEntry = page(
  () => import('../routes/smart-results.js'),
  (m) => m.SmartResultsEntry,
);
const SmartResultsPage = page(
  () => import('../routes/smart-results.js'),
  (m) => m.SmartResultsPage,
);
const NewBatchPage = page(
  () => import('../routes/batch.js'),
  (m) => m.NewBatchPage,
);
const BatchPage = page(
  () => import('../routes/batch.js'),
  (m) => m.BatchPage,
);

const guard = (element: ReactNode) => <ProtectedRoute>{element}</ProtectedRoute>;
/** A route showing `Page` to anyone, titled; its handle carries the page's preload. */
const anyone = (Page: Page, title: string): Pick<RouteObject, 'element' | 'handle'> => ({
  element: <Page />,
  handle: { title, preload: Page.preload } satisfies RouteHandle,
});
/** The same behind sign-in. */
const sellers = (Page: Page, title: string): Pick<RouteObject, 'element' | 'handle'> => ({
  ...anyone(Page, title),
  element: guard(<Page />),
});

/**
 * Starts fetching the chunks of the pages a load opens on, at boot: a signed-in page's code then
 * arrives while the session is checked, not after (the page still waits for the check to show).
 */
export function preloadPages(matches: readonly { route: Pick<RouteObject, 'handle'> }[]): void {
  for (const { route } of matches) void (route.handle as RouteHandle | undefined)?.preload?.();
}

export const appRoutes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', ...anyone(HomePage, 'Studio-quality product shots from an ordinary photo') },
      { path: '/pricing', ...anyone(PricingPage, 'Pricing') },
      { path: '/terms-of-service', ...anyone(TermsOfServicePage, 'Terms of Service') },
      { path: '/privacy-policy', ...anyone(PrivacyPolicyPage, 'Privacy Policy') },
      // The short addresses people type, and older links use.
      { path: '/terms', element: <Navigate to="/terms-of-service" replace /> },
      { path: '/privacy', element: <Navigate to="/privacy-policy" replace /> },
      // Clerk's hosted forms route their own steps under these paths.
      { path: '/sign-in/*', ...anyone(SignInPage, 'Sign in') },
      { path: '/sign-up/*', ...anyone(SignUpPage, 'Sign up') },
      { path: '/dashboard', ...sellers(DashboardPage, 'Dashboard') },
      { path: '/editor', ...sellers(EditorPage, 'Editor') },
      { path: '/profile', ...sellers(ProfilePage, 'Profile') },
      { path: '/checkout', ...sellers(CheckoutPage, 'Checkout') },
      { path: '/checkout/addon', ...sellers(CheckoutAddonPage, 'Buy credits') },
      { path: '/success', ...sellers(SuccessPage, 'Payment successful') },
      { path: '/all-uploads', ...sellers(AllUploadsPage, 'All uploads') },
      { path: '/all-generations', ...sellers(AllGenerationsPage, 'All generations') },
      { path: '/smart-upload', ...sellers(SmartUploadPage, 'Smart upload') },
      { path: '/smart/:generationId', ...sellers(SmartRunPage, 'Smart generation') },
      { path: '/smart-results', element: guard(<SmartResultsEntry />) },
      { path: '/smart-results/:generationId', ...sellers(SmartResultsPage, 'Your product shots') },
      { path: '/batches/new', ...sellers(NewBatchPage, 'New batch') },
      { path: '/batches/:batchId', ...sellers(BatchPage, 'Your batch') },
      { path: '*', ...anyone(NotFoundPage, 'Page not found') },
    ],
  },
];
