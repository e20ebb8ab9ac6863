import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getProfile } from '../profile/api/get-profile.js';
import { stubApi } from '../../test-support/fake-api.js';
import { useAuthState } from './auth-context.js';
import { ClerkBridge } from './clerk-auth-provider.js';

/**
 * Clerk's browser SDK talks to Clerk's servers: in its place, a signed-in session whose getToken
 * answers as Clerk's does, a template token when asked for a template and the session token otherwise.
 */
const getToken = vi.fn(async (options?: { template?: string }) =>
  options?.template ? `template-token:${options.template}` : 'session-token',
);
const clerkUser = {
  primaryEmailAddress: { emailAddress: 'ada@example.com' },
  fullName: 'Ada Seller',
  firstName: 'Ada',
};
vi.mock('@clerk/react', () => ({
  ClerkProvider: ({ children }: { children: unknown }) => children,
  useAuth: () => ({ isLoaded: true, isSignedIn: true, getToken, userId: 'user_clerk_1' }),
  useUser: () => ({ user: clerkUser }),
  useClerk: () => ({ signOut: async () => {} }),
}));

function Status() {
  return <p data-testid="status">{useAuthState().status}</p>;
}

async function signIn(jwtTemplate: string | undefined) {
  const calls = stubApi({
    'POST /auth/verify-token': () => ({ valid: true }),
    'GET /users/profile': () => ({ id: 'u1', name: 'Ada Seller', email: 'ada@example.com' }),
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ClerkBridge jwtTemplate={jwtTemplate}>
        <Status />
      </ClerkBridge>
    </QueryClientProvider>,
  );
  await vi.waitFor(() => expect(screen.getByTestId('status').textContent).toBe('signed-in'));
  await getProfile();
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  getToken.mockClear();
  localStorage.clear();
});

describe('ClerkBridge', () => {
  it('asks Clerk for a token from CLERK_JWT_TEMPLATE, and sends that token to verify-token and every API call', async () => {
    const calls = await signIn('prodshot-api');
    expect(getToken).toHaveBeenCalledWith({ template: 'prodshot-api' });
    expect(getToken).not.toHaveBeenCalledWith();
    expect(calls.find((call) => call.path === '/auth/verify-token')?.body).toEqual({
      token: 'template-token:prodshot-api',
    });
    expect(calls.find((call) => call.path === '/users/profile')?.headers.authorization).toBe(
      'Bearer template-token:prodshot-api',
    );
  });

  it("sends Clerk's session token when no template is configured", async () => {
    const calls = await signIn(undefined);
    expect(getToken.mock.calls.every((args) => args.length === 0)).toBe(true);
    expect(calls.find((call) => call.path === '/auth/verify-token')?.body).toEqual({ token: 'session-token' });
    expect(calls.find((call) => call.path === '/users/profile')?.headers.authorization).toBe('Bearer session-token');
  });
});
