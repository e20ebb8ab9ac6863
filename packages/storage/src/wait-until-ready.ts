import pRetry from 'p-retry';
import type { ObjectStore } from './object-store.js';

export interface WaitOptions {
  /** How long a starting process keeps trying before it gives up and exits (its orchestrator restarts it). */
  maxWaitMs?: number;
  /** Told of each failed try: a process that waits says why in its log. */
  onRetry?: (error: Error, attempt: number) => void;
}

/**
 * A starting process's first contact with the object store, retried with backoff: an object store
 * that stalls or restarts while a worker replaces a crashed one must not take the new worker down too.
 */
export async function waitUntilReady(
  store: Pick<ObjectStore, 'ensureReady'>,
  { maxWaitMs = 60_000, onRetry }: WaitOptions = {},
): Promise<void> {
  await pRetry(() => store.ensureReady(), {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 250,
    maxTimeout: 5_000,
    maxRetryTime: maxWaitMs,
    onFailedAttempt: ({ error, attemptNumber }) => onRetry?.(error, attemptNumber),
  });
}
