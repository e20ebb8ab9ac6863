import type {
  ClientToServerEvents,
  GenerationDto,
  ServerToClientEvents,
  SubjectResponse,
  SubscriptionResponse,
} from '@prodshot/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import type { Socket } from 'socket.io-client';
import { useAuthState } from '../features/auth/auth-context.js';
import { applyDone, applyStage, applyStyle } from '../features/generations/generation-cache.js';
import { mergeSubject, subjectFromEvent } from '../features/subject/subject-cache.js';
import { currentToken } from '../lib/api-client.js';
import { queryKeys } from '../lib/query-keys.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Socket events go straight into the query cache, so screens render them like any fetched data. */
export function wireSocketToCache(socket: ClientSocket, queryClient: QueryClient): void {
  const update = (id: string, fn: (current: GenerationDto | undefined) => GenerationDto) => {
    const key = queryKeys.generation(id);
    const seeded = queryClient.getQueryData(key) === undefined;
    queryClient.setQueryData<{ data: GenerationDto }>(key, (current) => ({ data: fn(current?.data) }));
    // An event can arrive before the run's first read: the entry it seeds is a skeleton (no image,
    // no product info) that staleTime: Infinity would keep until 'generation:done'. It is marked
    // stale at once, so the page that shows it reads the row (a read under way is kept, not restarted).
    if (seeded) void queryClient.invalidateQueries({ queryKey: key, exact: true }, { cancelRefetch: false });
  };

  socket.on('generation:stage', (event) => update(event.generationId, (g) => applyStage(g, event)));
  socket.on('generation:style', (event) => {
    update(event.generationId, (g) => applyStyle(g, event));
    if (event.status === 'complete') void queryClient.invalidateQueries({ queryKey: queryKeys.recentGenerationsAll });
  });
  socket.on('generation:done', (event) => {
    update(event.generationId, (g) => applyDone(g, event));
    // The final row carries what the event does not (the unsupported-product flag, product info).
    void queryClient.invalidateQueries({ queryKey: queryKeys.generation(event.generationId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.recentGenerationsAll });
  });
  socket.on('image:subject', (event) => {
    const subject = subjectFromEvent(event);
    queryClient.setQueryData<SubjectResponse>(queryKeys.subject(subject.imageId), (current) => ({
      data: mergeSubject(current?.data, subject),
    }));
  });
  socket.on('credits:update', (event) => {
    queryClient.setQueryData<SubscriptionResponse>(queryKeys.subscription, (current) =>
      current ? { ...current, ...event } : current,
    );
    if (!queryClient.getQueryData(queryKeys.subscription))
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
  });
  // Events sent while the socket was away are lost, and so are those between a page's first read and
  // the first connection (a reload mid-run, credits granted just after a checkout's redirect): on every
  // connection the credits already read, and each generation still running or still being read, are
  // read again (an unused, disabled entry is not).
  socket.on('connect', () => {
    if (queryClient.getQueryData(queryKeys.subscription))
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    const known = queryClient.getQueriesData<{ data: GenerationDto }>({ queryKey: queryKeys.generationAll });
    for (const [key, value] of known) {
      if (!value || value.data.status === 'queued' || value.data.status === 'running')
        void queryClient.invalidateQueries({ queryKey: key });
    }
  });
}

/** The longest the socket waits for a page's first reads: a page that never stops fetching still gets it. */
const SOCKET_WAIT_MS = 3_000;

/**
 * Calls `run` once the page's first reads have landed (no query fetching) and the browser has an
 * idle moment, or after SOCKET_WAIT_MS: socket.io's chunk and handshake show nothing, and a
 * connection made later loses nothing (on connect, every running generation is read again). Answers
 * a cancel.
 */
export function afterFirstReads(queryClient: QueryClient, run: () => void): () => void {
  let idle: number | undefined;
  const cancel = () => {
    unsubscribe();
    clearTimeout(timeout);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
  const go = () => {
    cancel();
    run();
  };
  const settled = () => {
    if (idle !== undefined || queryClient.isFetching() > 0) return;
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(go);
    else go();
  };
  const unsubscribe = queryClient.getQueryCache().subscribe(settled);
  const timeout = setTimeout(go, SOCKET_WAIT_MS);
  settled();
  return cancel;
}

export function SocketProvider({ children }: { children: ReactNode }) {
  const { status } = useAuthState();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (status !== 'signed-in') return;
    let socket: ClientSocket | undefined;
    let left = false;
    // socket.io is its own chunk: only a signed-in seller downloads it, after the page's first reads.
    const stopWaiting = afterFirstReads(queryClient, () => {
      void import('socket.io-client').then(({ io }) => {
        if (left) return;
        socket = io({
          path: '/socket.io',
          // A function, so that each reconnect presents a fresh token rather than the first one.
          auth: (cb) => {
            void currentToken().then((token) => cb({ token }));
          },
          transports: ['websocket', 'polling'],
        });
        wireSocketToCache(socket, queryClient);
        // The server disconnects a socket when its token expires; socket.io does not come back from a
        // server's disconnect by itself, so reconnect, which presents a fresh token (or fails signed out).
        socket.on('disconnect', (reason) => {
          if (reason === 'io server disconnect' && !left) socket?.connect();
        });
      });
    });
    return () => {
      left = true;
      stopWaiting();
      socket?.disconnect();
    };
  }, [status, queryClient]);
  return <>{children}</>;
}
