import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { userRoom, type ServerToClientEvents } from '@prodshot/contracts';

type EventName = keyof ServerToClientEvents;
/** What callers pass: the event without its timestamp, which the publisher adds. */
type EventPayload<E extends EventName> = DistributiveOmit<Parameters<ServerToClientEvents[E]>[0], 'at'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Sends typed events to a user's sockets on whichever API replica holds them, through Redis. */
export interface Publisher {
  emit<E extends EventName>(userId: string, event: E, payload: EventPayload<E>): void;
}

export function createPublisher(redis: Redis): Publisher {
  const emitter = new Emitter<ServerToClientEvents>(redis);
  return {
    emit(userId, event, payload) {
      // The emitter's generic signature is too wide for the mapped event map; the call is checked by Publisher's own types.
      (emitter.to(userRoom(userId)).emit as (event: string, payload: unknown) => void)(event, {
        ...payload,
        at: Date.now(),
      });
    },
  };
}
