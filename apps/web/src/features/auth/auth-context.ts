import { createContext, useContext } from 'react';

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

export interface AuthContextValue {
  status: AuthStatus;
  mode: 'embedded' | 'clerk' | null;
  /** Embedded mode only: the dev sign-in that stands in for the hosted form. */
  signInEmbedded?: (email: string, name: string) => Promise<void>;
  signOut: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue>({
  status: 'loading',
  mode: null,
  signOut: async () => {},
});

export function useAuthState(): AuthContextValue {
  return useContext(AuthContext);
}
