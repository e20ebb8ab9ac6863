import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner.js';
import { useAuthState } from './auth-context.js';

/** docs/product-spec.md §2: a spinner until auth has loaded, then the page or /sign-in with the original location. */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { status } = useAuthState();
  const location = useLocation();
  if (status === 'loading') return <Spinner label="Checking your session" fullPage />;
  if (status === 'signed-out') {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/sign-in?redirect_url=${encodeURIComponent(from)}`} replace state={{ from: location }} />;
  }
  return <>{children}</>;
}
