import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { userRoom, type ClientToServerEvents, type ServerToClientEvents } from '@prodshot/contracts';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<never, never>, { userId: string }>;

function bearer(header: unknown): string | undefined {
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
}

/**
 * socket.io on the API's HTTP server. The handshake carries the same bearer token as HTTP; a
 * socket joins only its own user's room, and the Redis adapter lets workers and other API
 * replicas reach it.
 */
export function attachRealtime(app: FastifyInstance, redis: Redis): RealtimeServer {
  const io: RealtimeServer = new Server(app.server, { path: '/socket.io', serveClient: false, cors: { origin: false } });
  const pub = redis.duplicate();
  const sub = redis.duplicate();
  io.adapter(createAdapter(pub, sub));

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token ?? bearer(socket.handshake.headers.authorization);
    if (typeof token !== 'string' || !token) return next(new Error('Unauthorized'));
    app.sessionAuth
      .verifySessionToken(token)
      .then(async (who) => {
        if (!who) return next(new Error('Unauthorized'));
        const user = await app.sessionAuth.users.ensure({ clerkId: who.clerkId });
        socket.data.userId = user.id;
        await socket.join(userRoom(user.id));
        next();
      })
      .catch(() => next(new Error('Unauthorized')));
  });

  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
    pub.disconnect();
    sub.disconnect();
  });
  return io;
}
