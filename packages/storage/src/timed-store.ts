import pTimeout from 'p-timeout';
import type { ObjectStore } from './object-store.js';

/** An object-store call that did not answer in time: the caller fails (a job retries, then refunds) instead of hanging. */
export class StorageTimeoutError extends Error {
  override readonly name = 'StorageTimeoutError';
  readonly code = 'storage_timeout';
  constructor(operation: string, timeoutMs: number) {
    super(`The object store did not answer ${operation} within ${timeoutMs} ms`);
  }
}

/**
 * Bounds every call of a store. A stalled MinIO (or a hung disk) then fails the call: the request
 * answers an error and a job is retried, where it would otherwise hold its worker forever.
 */
export function withTimeouts(store: ObjectStore, timeoutMs: number): ObjectStore {
  const bounded =
    <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      pTimeout(call(...args), { milliseconds: timeoutMs, message: new StorageTimeoutError(operation, timeoutMs) });
  return {
    driver: store.driver,
    ensureReady: bounded('ensureReady', () => store.ensureReady()),
    ping: bounded('ping', () => store.ping()),
    put: bounded('put', (key: string, body: Buffer, contentType: string) => store.put(key, body, contentType)),
    get: bounded('get', (key: string) => store.get(key)),
    getStream: bounded('getStream', (key: string) => store.getStream(key)),
    stat: bounded('stat', (key: string) => store.stat(key)),
    delete: bounded('delete', (key: string) => store.delete(key)),
    deletePrefix: bounded('deletePrefix', (prefix: string) => store.deletePrefix(prefix)),
    signedUrl: bounded('signedUrl', (key: string, ttlSeconds?: number) => store.signedUrl(key, ttlSeconds)),
    // Reads a string, never the store: nothing to bound.
    keyOfUrl: (url: string, appOrigin: string) => store.keyOfUrl(url, appOrigin),
  };
}
