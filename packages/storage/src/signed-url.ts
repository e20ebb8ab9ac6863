import { createHmac, timingSafeEqual } from 'node:crypto';
import { assertSafeKey } from './keys.js';

/** The API route that serves filesystem-stored objects behind signed URLs. */
export const FILES_ROUTE_PREFIX = '/api/files/';

/** The moment a URL is signed at and the moment it expires, in seconds since the epoch. */
export interface SigningTimes {
  issued: number;
  expires: number;
}

/**
 * Signed URLs are cut once per window: every URL for one file signed within a window is the same,
 * so a browser (or a proxy) can cache what it names until the window changes. Each expires at a
 * window boundary at least `minTtlSeconds` after the moment it was handed out.
 */
export function signingTimes(windowSeconds: number, minTtlSeconds: number, nowMs = Date.now()): SigningTimes {
  const issued = Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
  return { issued, expires: issued + windowSeconds + Math.ceil(minTtlSeconds / windowSeconds) * windowSeconds };
}

/** The HMAC of what a link names (a key, or any subject) and its expiry; verifySignature checks it. */
export function signature(secret: string, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('base64url');
}

/** The signature covers the key and the expiry, so a URL cannot be replayed for another key or past its time. */
export function signPath(secret: string, key: string, expires: number): string {
  assertSafeKey(key);
  const encodedKey = key.split('/').map(encodeURIComponent).join('/');
  return `${FILES_ROUTE_PREFIX}${encodedKey}?expires=${expires}&signature=${signature(secret, key, expires)}`;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

export function verifySignature(
  secret: string,
  key: string,
  expires: number,
  given: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (!Number.isInteger(expires)) return 'invalid';
  const expected = Buffer.from(signature(secret, key, expires));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'invalid';
  return expires < nowSeconds ? 'expired' : 'valid';
}
