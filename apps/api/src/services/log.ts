import type { Logger } from 'pino';

/** What a service logs with: the request's logger, which Fastify builds on pino. */
export type Log = Pick<Logger, 'info' | 'warn' | 'error'>;
