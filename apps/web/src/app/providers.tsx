import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { EmbeddedAuthProvider } from '../features/auth/embedded-auth-provider.js';
import { SocketProvider } from './socket-provider.js';
import { useClientConfig } from '../features/auth/api/get-client-config.js';

// Clerk's SDK is large; only deployments that configure it download it.
const ClerkAuthProvider = lazy(() =>
  import('../features/auth/clerk-auth-provider.js').then((m) => ({ default: m.ClerkAuthProvider })),
);

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Live data arrives over the socket; refetching on every focus would only add load.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 },
    },
  });
}

/** Picks Clerk or the embedded sign-in from the API's client config, at runtime. */
function AuthProvider({ children }: { children: ReactNode }) {
  const config = useClientConfig();
  const auth = config.data?.auth;
  if (auth?.mode === 'clerk') {
    return (
      <Suspense fallback={null}>
        <ClerkAuthProvider publishableKey={auth.publishableKey} jwtTemplate={auth.jwtTemplate}>
          {children}
        </ClerkAuthProvider>
      </Suspense>
    );
  }
  // Until the config answers, the embedded provider already asks about a stored token, and the
  // page keeps its place in the tree when the answer is 'embedded' (nothing under it mounts again).
  return <EmbeddedAuthProvider settled={auth?.mode === 'embedded' || config.isError}>{children}</EmbeddedAuthProvider>;
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <SocketProvider>{children}</SocketProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
