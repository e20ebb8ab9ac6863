import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { userRoom, type ClientToServerEvents, type ServerToClientEvents } from '@prodshot/contracts';

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<never, never>,
  { userId: string }
>;

function bearer(header: unknown): string | undefined {
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
}

/** setTimeout fires at once past this (about 24.8 days); a token living longer is cut there and re-checked on reconnect. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * socket.io on the API's HTTP server. The handshake carries the same bearer token as HTTP; a
 * socket joins only its own user's room, and the Redis adapter lets workers and other API
 * replicas reach it. A socket lives no longer than its token: when the token expires the server
 * disconnects it, which takes it out of the room, so a signed-out seller's socket (whose token is
 * never refreshed) stops receiving events; the web app reconnects with a fresh token.
 */
export async function attachRealtime(app: FastifyInstance, redis: Redis): Promise<RealtimeServer> {
  const io: RealtimeServer = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
  });
  // Subscribers wait out Redis outages rather than failing their commands.
  const pub = redis.duplicate({ maxRetriesPerRequest: null });
  const sub = redis.duplicate({ maxRetriesPerRequest: null });
  for (const client of [pub, sub])
    client.on('error', (error) => app.log.warn({ err: error }, 'realtime redis connection error'));
  // The adapter subscribes as it is created and never handles a failed subscription, so it is
  // created on a live connection only; with Redis down at boot the API starts anyway and the
  // adapter joins when Redis answers.
  const attachAdapter = () => io.adapter(createAdapter(pub, sub));
  if (await readyWithin(sub, 3_000)) attachAdapter();
  else sub.once('ready', attachAdapter);

  io.use((socket, next) => {
    const token =
      (socket.handshake.auth as { token?: unknown }).token ?? bearer(socket.handshake.headers.authorization);
    if (typeof token !== 'string' || !token) return next(new Error('Unauthorized'));
    app.sessionAuth
      .verifySessionToken(token)
      .then(async (who) => {
        if (!who) return next(new Error('Unauthorized'));
        const userId = await app.services.accounts.userIdOf(who.clerkId);
        socket.data.userId = userId;
        await socket.join(userRoom(userId));
        const expiry = setTimeout(
          () => socket.disconnect(true),
          Math.min(Math.max(0, who.expiresAt - Date.now()), LONGEST_TIMER_MS),
        );
        expiry.unref();
        socket.once('disconnect', () => clearTimeout(expiry));
        next();
      })
      .catch(() => next(new Error('Unauthorized')));
  });

  app.addHook('onClose', async () => {
    sub.removeListener('ready', attachAdapter);
    await new Promise<void>((resolve) => io.close(() => resolve()));
    // quit, not disconnect: the adapter's unsubscribe commands are answered before the socket closes.
    await Promise.allSettled([quitOrDrop(pub), quitOrDrop(sub)]);
  });
  return io;
}

async function readyWithin(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.removeListener('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    client.once('ready', onReady);
  });
}

async function quitOrDrop(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit();
  else client.disconnect();
}
