import { v4 as uuidv4 } from 'uuid';
import { ApiError, NoResponseError } from './api-client.js';

/**
 * One key per user action (a click, a submitted form, a dropped file). Every retry of that action
 * sends the same key, so the API answers with the first call's work and charges nothing more.
 */
export function newIdempotencyKey(): string {
  // uuid's v4 uses crypto.randomUUID where it exists; a deployment served over plain http has none.
  return uuidv4();
}

/**
 * Failures after which nobody knows whether the call took effect: the network dropped it, a proxy
 * timed out or answered in its stead (502 without our error code), or the API shed load (503).
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof NoResponseError) return true;
  if (!(error instanceof ApiError)) return false;
  return error.status === 503 || error.status === 504 || (error.status === 502 && !error.code);
}

const MAX_RETRIES = 2;

/** TanStack's `retry` for calls keyed by their action: transient failures only, same variables, same key. */
export function retryTransient(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && isTransient(error);
}
