import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
  contentType: string;
  /** An HTTP entity tag, quoted, that changes whenever the object is written again. */
  etag: string;
}

/** Storage for uploads and generated shots. Keys follow keys.ts; every method refuses unsafe keys. */
export interface ObjectStore {
  readonly driver: 'fs' | 'minio';
  /** Creates the bucket or folder if missing. */
  ensureReady(): Promise<void>;
  /** Cheap round trip for health checks. */
  ping(): Promise<void>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  getStream(key: string): Promise<StoredObject & { stream: Readable }>;
  /** null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  /** Idempotent: deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object under a prefix ending in '/'; returns how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * A URL a browser can GET until it expires: at least `ttlSeconds` (the configured TTL by
   * default), and the same URL for the same key all through one signing window.
   */
  signedUrl(key: string, ttlSeconds?: number): Promise<string>;
  /**
   * The key named by a link this store hands out (expired or not), or null when the URL is not
   * one of its links. Reads the URL only, never fetches it. `appOrigin` is where the app is served,
   * which relative links are relative to.
   */
  keyOfUrl(url: string, appOrigin: string): string | null;
}

export class ObjectNotFoundError extends Error {
  override readonly name = 'ObjectNotFoundError';
  constructor(readonly key: string) {
    super(`No stored object at ${key}`);
  }
}
