import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { setTokenSource } from '../../lib/api-client.js';
import { devSignIn } from './api/dev-sign-in.js';
import { verifyToken } from './api/register.js';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context.js';
import { readStoredToken, storeToken } from './token-storage.js';

/** Embedded mode: tokens minted by the API's dev sign-in, kept under the spec's auth-token key. */
export function EmbeddedAuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => readStoredToken());
  const [status, setStatus] = useState<AuthStatus>(() => (readStoredToken() ? 'loading' : 'signed-out'));

  useEffect(() => {
    setTokenSource(() => token);
  }, [token]);

  useEffect(() => {
    const stored = readStoredToken();
    if (!stored) return;
    let cancelled = false;
    // A failed verification counts as not registered (docs/product-spec.md §8): the visitor signs in again.
    verifyToken(stored)
      .catch(() => ({ valid: false }))
      .then(({ valid }) => {
        if (cancelled) return;
        if (!valid) {
          storeToken(null);
          setToken(null);
        }
        setStatus(valid ? 'signed-in' : 'signed-out');
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const signInEmbedded = useCallback(async (email: string, name: string) => {
    const { token: minted } = await devSignIn({ email, name });
    storeToken(minted);
    setTokenSource(() => minted);
    setToken(minted);
    setStatus('signed-in');
  }, []);

  const signOut = useCallback(async () => {
    storeToken(null);
    setTokenSource(() => null);
    setToken(null);
    setStatus('signed-out');
    queryClient.clear();
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(() => ({ status, mode: 'embedded', signInEmbedded, signOut }), [status, signInEmbedded, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
