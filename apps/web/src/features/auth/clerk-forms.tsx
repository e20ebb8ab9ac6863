import { SignIn, SignUp } from '@clerk/react';

/** Clerk's hosted forms; a separate chunk so the embedded mode never downloads Clerk. */
export default function ClerkForm({ kind, redirect }: { kind: 'sign-in' | 'sign-up'; redirect: string }) {
  return kind === 'sign-in' ? (
    <SignIn routing="path" path="/sign-in" signUpUrl="/sign-up" forceRedirectUrl={redirect} />
  ) : (
    <SignUp routing="path" path="/sign-up" signInUrl="/sign-in" forceRedirectUrl={redirect} />
  );
}
