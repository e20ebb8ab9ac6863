/**
 * Job names and their payloads: the one typed map that the API (producer) and the worker
 * (consumer) share. Every name here must have a handler in apps/worker/src/handlers, which the
 * worker's handler table enforces at compile time.
 */
export type JobPayloads = Record<never, never>;

export type JobName = keyof JobPayloads;
