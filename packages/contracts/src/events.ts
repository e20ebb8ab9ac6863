import type { CreditBalance } from './credits.js';
import type { RunStatus, SmartStage } from './generations.js';
import type { Progress } from './progress.js';
import type { RenditionUrls } from './images.js';
import type { ProductInfo } from './products.js';
import type { SubjectDto } from './subjects.js';

/** Server clock (ms since epoch) when the event was sent: clients order events by it, the bench measures push latency with it. */
export type Stamped<T> = T & { at: number };

/** Every socket.io event the server sends to a user's room `user:{userId}`. */
export interface ServerToClientEvents {
  'generation:stage': (
    event: Stamped<{
      generationId: string;
      stage: SmartStage;
      productInfo?: ProductInfo;
      styles?: { index: number; name: string }[];
    }>,
  ) => void;
  'generation:style': (event: Stamped<StyleEvent>) => void;
  'generation:done': (
    event: Stamped<{ generationId: string; status: Extract<RunStatus, 'complete' | 'failed'>; error: string | null }>,
  ) => void;
  /** An upload's subject was found (or not): the tap step and generation may go on. */
  'image:subject': (event: Stamped<SubjectDto>) => void;
  'credits:update': (event: Stamped<CreditBalance>) => void;
}

export type StyleEvent =
  | { generationId: string; index: number; status: 'queued' | 'running' }
  | { generationId: string; index: number; status: 'progress'; progress: Progress }
  | ({ generationId: string; index: number; status: 'complete'; url: string } & RenditionUrls)
  | { generationId: string; index: number; status: 'failed'; error: string };

/** The client sends nothing but the auth token at handshake. */
export type ClientToServerEvents = Record<never, never>;

export function userRoom(userId: string): string {
  return `user:${userId}`;
}

type EventName = keyof ServerToClientEvents;
/** What callers pass: the event without its timestamp, which the publisher adds. */
export type EventPayload<E extends EventName> = DistributiveOmit<Parameters<ServerToClientEvents[E]>[0], 'at'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Sends typed events to a user's sockets, stamped with the server's clock. */
export interface Publisher {
  emit<E extends EventName>(userId: string, event: E, payload: EventPayload<E>): void;
}

/** What reaches a room: socket.io's server in the API, its Redis emitter (every API replica) in the worker. */
export interface RoomSender {
  to(room: string): { emit(event: string, payload: unknown): unknown };
}

/** The one publisher of the API and the worker: the user's room, the event, and its timestamp. */
export function createPublisher(rooms: RoomSender): Publisher {
  return {
    emit(userId, event, payload) {
      rooms.to(userRoom(userId)).emit(event, { ...payload, at: Date.now() });
    },
  };
}
