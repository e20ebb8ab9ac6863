import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import ClerkForm from './clerk-forms.js';

const shown: { form: string; props: Record<string, unknown> }[] = [];
vi.mock('@clerk/react', () => ({
  SignIn: (props: Record<string, unknown>) => {
    shown.push({ form: 'SignIn', props });
    return null;
  },
  SignUp: (props: Record<string, unknown>) => {
    shown.push({ form: 'SignUp', props });
    return null;
  },
}));

describe("Clerk's forms", () => {
  it('bring the seller back to the kept path after signing in, or after switching to sign-up', () => {
    render(<ClerkForm kind="sign-in" redirect="/checkout?plan=pro" />);
    expect(shown.at(-1)).toEqual({
      form: 'SignIn',
      props: expect.objectContaining({
        forceRedirectUrl: '/checkout?plan=pro',
        signUpForceRedirectUrl: '/checkout?plan=pro',
        signUpUrl: '/sign-up?redirect_url=%2Fcheckout%3Fplan%3Dpro',
      }),
    });
  });

  it('bring the seller back to the kept path after signing up, or after switching to sign-in', () => {
    render(<ClerkForm kind="sign-up" redirect="/checkout?plan=pro" />);
    expect(shown.at(-1)).toEqual({
      form: 'SignUp',
      props: expect.objectContaining({
        forceRedirectUrl: '/checkout?plan=pro',
        signInForceRedirectUrl: '/checkout?plan=pro',
        signInUrl: '/sign-in?redirect_url=%2Fcheckout%3Fplan%3Dpro',
      }),
    });
  });
});
