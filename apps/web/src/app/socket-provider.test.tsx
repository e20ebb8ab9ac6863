import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthStatus } from '../features/auth/auth-context.js';
import { queryKeys } from '../lib/query-keys.js';
import { SocketProvider } from './socket-provider.js';

/** What the provider does with socket.io's client, recorded. */
const fake = vi.hoisted(() => {
  const handlers = new Map<string, ((...args: unknown[]) => void)[]>();
  const socket = {
    on: (event: string, handler: (...args: unknown[]) => void) =>
      handlers.set(event, [...(handlers.get(event) ?? []), handler]),
    connect: vi.fn(),
    disconnect: vi.fn(),
    emit: (event: string, ...args: unknown[]) => handlers.get(event)?.forEach((handler) => handler(...args)),
  };
  return { socket, handlers, io: vi.fn(() => socket) };
});
vi.mock('socket.io-client', () => ({ io: fake.io }));

afterEach(() => {
  cleanup();
  fake.handlers.clear();
  vi.clearAllMocks();
});

function tree(status: AuthStatus, queryClient: QueryClient) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={{ status, mode: 'embedded', signOut: async () => {} }}>
        <SocketProvider>
          <p>app</p>
        </SocketProvider>
      </AuthContext.Provider>
    </QueryClientProvider>
  );
}

describe('SocketProvider', () => {
  it('reconnects, with a fresh token, when the server drops the socket for its expired token, and not after its own disconnect', async () => {
    render(tree('signed-in', new QueryClient()));
    await waitFor(() => expect(fake.io).toHaveBeenCalledOnce());
    fake.socket.emit('disconnect', 'transport close');
    expect(fake.socket.connect).not.toHaveBeenCalled();
    fake.socket.emit('disconnect', 'io server disconnect');
    expect(fake.socket.connect).toHaveBeenCalledOnce();
    const auth = (fake.io.mock.calls[0] as unknown as [{ auth: unknown }])[0].auth;
    expect(typeof auth).toBe('function');
  });

  it('disconnects on sign-out, which takes the socket out of its room, and does not come back', async () => {
    const queryClient = new QueryClient();
    const view = render(tree('signed-in', queryClient));
    await waitFor(() => expect(fake.io).toHaveBeenCalledOnce());
    view.rerender(tree('signed-out', queryClient));
    expect(fake.socket.disconnect).toHaveBeenCalledOnce();
    fake.socket.emit('disconnect', 'io server disconnect');
    expect(fake.socket.connect).not.toHaveBeenCalled();
  });

  it("connects only once the page's first reads have landed", async () => {
    const queryClient = new QueryClient();
    let answer: (value: string) => void = () => undefined;
    void queryClient.fetchQuery({
      queryKey: ['first-read'],
      queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    render(tree('signed-in', queryClient));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.io).not.toHaveBeenCalled();
    answer('read');
    await waitFor(() => expect(fake.io).toHaveBeenCalledOnce());
  });

  it('reads the credits again on connecting: a grant made before the socket was up (just after a checkout) is not missed', async () => {
    const queryClient = new QueryClient();
    let reads = 0;
    const read = () => Promise.resolve({ credits: (reads += 1) });
    await queryClient.fetchQuery({ queryKey: queryKeys.subscription, queryFn: read });
    queryClient
      .getQueryCache()
      .find({ queryKey: queryKeys.subscription })!
      .setOptions({ queryKey: queryKeys.subscription, queryFn: read });
    render(tree('signed-in', queryClient));
    await waitFor(() => expect(fake.io).toHaveBeenCalledOnce());
    fake.socket.emit('connect');
    await waitFor(() =>
      expect(queryClient.getQueryState(queryKeys.subscription)?.isInvalidated || reads > 1).toBe(true),
    );
  });
});
