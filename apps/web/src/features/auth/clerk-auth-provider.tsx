import { ClerkProvider, useAuth, useClerk, useUser } from '@clerk/react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { setTokenSource } from '../../lib/api-client.js';
import { register, verifyToken } from './api/register.js';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context.js';
import { storeToken } from './token-storage.js';

interface ClerkAuthProviderProps {
  publishableKey: string;
  /** docs/product-spec.md §7: tokens come from the template named for the product's API when one is configured. */
  jwtTemplate?: string | undefined;
  children: ReactNode;
}

/** Production mode: Clerk's hosted sign-in, its token verified (and registered) with our API. */
export function ClerkAuthProvider({ publishableKey, jwtTemplate, children }: ClerkAuthProviderProps) {
  return (
    <ClerkProvider publishableKey={publishableKey} afterSignOutUrl="/">
      <ClerkBridge jwtTemplate={jwtTemplate}>{children}</ClerkBridge>
    </ClerkProvider>
  );
}

/** Clerk's getToken for our API: from the template when there is one, else the session token. */
export function apiTokenGetter(
  getToken: (options?: { template?: string }) => Promise<string | null>,
  jwtTemplate: string | undefined,
): () => Promise<string | null> {
  return jwtTemplate ? () => getToken({ template: jwtTemplate }) : () => getToken();
}

export function ClerkBridge({ jwtTemplate, children }: { jwtTemplate?: string | undefined; children: ReactNode }) {
  const { isLoaded, isSignedIn, getToken: clerkGetToken, userId } = useAuth();
  const getToken = useMemo(() => apiTokenGetter(clerkGetToken, jwtTemplate), [clerkGetToken, jwtTemplate]);
  const { user } = useUser();
  const clerk = useClerk();
  const queryClient = useQueryClient();
  const [registered, setRegistered] = useState<string | null>(null);

  useEffect(() => {
    setTokenSource(() => getToken());
  }, [getToken]);

  const email = user?.primaryEmailAddress?.emailAddress;
  const name = user?.fullName ?? user?.firstName ?? email ?? '';
  useEffect(() => {
    if (!isSignedIn || !userId || !email || registered === userId) return;
    let cancelled = false;
    (async () => {
      const token = await getToken();
      if (!token) return;
      const { valid } = await verifyToken(token).catch(() => ({ valid: false }));
      if (valid) storeToken(token);
      else storeToken((await register({ email, name, clerkId: userId }, token)).token);
      if (!cancelled) setRegistered(userId);
    })().catch((error: unknown) => {
      // docs/product-spec.md §8: registration failures are only logged; the API still sees a valid Clerk session.
      console.error('registration failed', error);
      if (!cancelled) setRegistered(userId);
    });
    return () => {
      cancelled = true;
    };
  }, [isSignedIn, userId, email, name, registered, getToken]);

  const signOut = useCallback(async () => {
    storeToken(null);
    queryClient.clear();
    await clerk.signOut();
  }, [clerk, queryClient]);

  const status: AuthStatus = !isLoaded
    ? 'loading'
    : !isSignedIn
      ? 'signed-out'
      : registered === userId
        ? 'signed-in'
        : 'loading';
  const value = useMemo<AuthContextValue>(() => ({ status, mode: 'clerk', signOut }), [status, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
