import { SignIn, SignUp } from '@clerk/react';
import { authPath } from './return-path.js';

/**
 * Clerk's hosted forms; a separate chunk so the embedded mode never downloads Clerk. `redirect` is
 * already a same-site path (safeReturnPath); it follows the seller from one form to the other, so a
 * plan picked before signing up still waits after it.
 */
export default function ClerkForm({ kind, redirect }: { kind: 'sign-in' | 'sign-up'; redirect: string }) {
  return kind === 'sign-in' ? (
    <SignIn
      routing="path"
      path="/sign-in"
      signUpUrl={authPath('sign-up', redirect)}
      forceRedirectUrl={redirect}
      signUpForceRedirectUrl={redirect}
    />
  ) : (
    <SignUp
      routing="path"
      path="/sign-up"
      signInUrl={authPath('sign-in', redirect)}
      forceRedirectUrl={redirect}
      signInForceRedirectUrl={redirect}
    />
  );
}
