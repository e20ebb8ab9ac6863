import type { QueryClient } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import type { ServerToClientEvents } from '@prodshot/contracts';
import { wireSocketToCache } from '../app/socket-provider.js';

// Distributes over the union of style events, which a plain Omit would flatten to their common keys.
type Unstamped<T> = T extends unknown ? Omit<T, 'at'> : never;
type Event<E extends keyof ServerToClientEvents> = Unstamped<Parameters<ServerToClientEvents[E]>[0]>;

/** A socket wired to the cache as the app wires the real one, whose events the test sends. */
export function fakeSocket(queryClient: QueryClient) {
  const handlers = new Map<string, (event?: unknown) => void>();
  const socket = { on: (name: string, handler: (event?: unknown) => void) => handlers.set(name, handler) };
  wireSocketToCache(socket as unknown as Parameters<typeof wireSocketToCache>[0], queryClient);
  return {
    emit<E extends keyof ServerToClientEvents>(name: E, event: Event<E>) {
      act(() => handlers.get(name)!({ ...event, at: Date.now() }));
    },
    connect() {
      act(() => handlers.get('connect')!());
    },
  };
}
