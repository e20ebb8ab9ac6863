import { AUTH_TOKEN_STORAGE_KEY } from '@prodshot/contracts';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthState } from '../features/auth/auth-context.js';
import { stubApi } from '../test-support/fake-api.js';
import { AppProviders } from './providers.js';

vi.mock('socket.io-client', () => ({ io: () => ({ on: () => undefined, disconnect: () => undefined }) }));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const mounts = vi.fn();

function Session() {
  const { status } = useAuthState();
  useEffect(() => mounts(), []);
  return <p>session {status}</p>;
}

/** The client config held back until the test lets it answer. */
function heldConfig(valid: boolean) {
  let answer: (value: unknown) => void = () => undefined;
  const held = new Promise((resolve) => (answer = resolve));
  const calls = stubApi({ 'GET /client-config': () => held, 'POST /auth/verify-token': () => ({ valid }) });
  return { calls, answer: () => answer({ auth: { mode: 'embedded' } }) };
}

describe('AppProviders: the stored session', () => {
  it('is checked while the client config is still on its way, and told once the config names the deployment embedded', async () => {
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, 'seller-token');
    const { calls, answer } = heldConfig(true);
    render(
      <AppProviders>
        <Session />
      </AppProviders>,
    );
    await waitFor(() =>
      expect(calls.map((call) => `${call.method} ${call.path}`)).toContain('POST /auth/verify-token'),
    );
    expect(calls.find((call) => call.path === '/auth/verify-token')?.body).toEqual({ token: 'seller-token' });
    // The API has said yes, but the deployment could still be Clerk's.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByText('session loading')).toBeTruthy();
    answer();
    expect(await screen.findByText('session signed-in')).toBeTruthy();
    // The page under the providers stayed mounted through the config's answer.
    expect(mounts).toHaveBeenCalledOnce();
  });

  it('keeps a token the API refused while the config is on its way, and drops it once the deployment is embedded', async () => {
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, 'old-token');
    const { answer } = heldConfig(false);
    render(
      <AppProviders>
        <Session />
      </AppProviders>,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe('old-token');
    answer();
    expect(await screen.findByText('session signed-out')).toBeTruthy();
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });
});
