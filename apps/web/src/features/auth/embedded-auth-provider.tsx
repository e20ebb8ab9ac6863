import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { setTokenSource } from '../../lib/api-client.js';
import { devSignIn } from './api/dev-sign-in.js';
import { verifyToken } from './api/register.js';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context.js';
import { readStoredToken, storeToken } from './token-storage.js';

interface EmbeddedAuthProviderProps {
  /**
   * Whether the client config has named this deployment embedded. Until it has, the provider only
   * asks the API about a stored token (both round trips then overlap) and tells no session: a Clerk
   * deployment replaces it and keeps its own token.
   */
  settled?: boolean;
  children: ReactNode;
}

/** Embedded mode: tokens minted by the API's dev sign-in, kept under the spec's auth-token key. */
export function EmbeddedAuthProvider({ settled = true, children }: EmbeddedAuthProviderProps) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readStoredToken);
  /** The API's answer for `token`: null while it is asked. */
  const [valid, setValid] = useState<boolean | null>(null);

  // Set at mount, before the check can let the session's first calls out (children's effects run
  // before this provider's); a Clerk deployment that replaces this provider sets its own.
  useEffect(() => {
    setTokenSource(() => token);
    return () => setTokenSource(() => null);
  }, [token]);

  useEffect(() => {
    const stored = readStoredToken();
    if (!stored) return;
    let cancelled = false;
    verifyToken(stored)
      .catch(() => ({ valid: false }))
      .then((answer) => {
        if (!cancelled) setValid(answer.valid);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  // A failed verification counts as not registered (docs/product-spec.md §8): the visitor signs in again.
  const refused = settled && token !== null && valid === false;
  useEffect(() => {
    if (!refused) return;
    storeToken(null);
    setToken(null);
  }, [refused]);

  const signInEmbedded = useCallback(async (email: string, name: string) => {
    const { token: minted } = await devSignIn({ email, name });
    storeToken(minted);
    setTokenSource(() => minted);
    setToken(minted);
    setValid(true);
  }, []);

  const signOut = useCallback(async () => {
    storeToken(null);
    setTokenSource(() => null);
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  const status: AuthStatus = !settled
    ? 'loading'
    : token === null || valid === false
      ? 'signed-out'
      : valid
        ? 'signed-in'
        : 'loading';
  const value = useMemo<AuthContextValue>(
    () => (settled ? { status, mode: 'embedded', signInEmbedded, signOut } : { status, mode: null, signOut }),
    [settled, status, signInEmbedded, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
