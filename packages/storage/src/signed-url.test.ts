import { describe, expect, it } from 'vitest';
import { signingTimes, signPath, verifySignature } from './signed-url.js';

const secret = 'a-test-secret-of-enough-length';

function parse(pathWithQuery: string) {
  const url = new URL(pathWithQuery, 'http://x');
  return {
    key: decodeURIComponent(url.pathname.replace('/api/files/', '')),
    expires: Number(url.searchParams.get('expires')),
    signature: url.searchParams.get('signature') ?? '',
  };
}

describe('signed URLs', () => {
  const now = 1_800_000_000;

  it('verifies its own signature until it expires', () => {
    const { key, expires, signature } = parse(signPath(secret, 'users/u/uploads/f.png', now + 60));
    expect(verifySignature(secret, key, expires, signature, now)).toBe('valid');
    expect(verifySignature(secret, key, expires, signature, now + 61)).toBe('expired');
  });

  it('cannot be reused for another key, another expiry or another secret', () => {
    const { key, expires, signature } = parse(signPath(secret, 'users/u/uploads/f.png', now + 60));
    expect(verifySignature(secret, 'users/v/uploads/f.png', expires, signature, now)).toBe('invalid');
    expect(verifySignature(secret, key, expires + 3600, signature, now)).toBe('invalid');
    expect(verifySignature('another-secret-of-enough-length', key, expires, signature, now)).toBe('invalid');
    expect(verifySignature(secret, key, expires, 'short', now)).toBe('invalid');
  });
});

describe('signing windows', () => {
  const hour = 1_800_000_000 - (1_800_000_000 % 3600);

  it('gives every moment of a window the same times, signed at its start', () => {
    const first = signingTimes(3600, 900, hour * 1000);
    expect(first).toEqual({ issued: hour, expires: hour + 7200 });
    expect(signingTimes(3600, 900, (hour + 3599) * 1000 + 999)).toEqual(first);
    expect(signingTimes(3600, 900, (hour + 3600) * 1000)).toEqual({ issued: hour + 3600, expires: hour + 10800 });
  });

  it('keeps every URL valid for at least the TTL, ending on a window boundary', () => {
    for (const [window, ttl] of [
      [3600, 3600],
      [3600, 60],
      [600, 3600],
      [900, 1000],
    ] as const) {
      for (let offset = 0; offset < window * 3; offset += 97) {
        const now = hour + offset;
        const { issued, expires } = signingTimes(window, ttl, now * 1000);
        expect(expires - now).toBeGreaterThanOrEqual(ttl);
        expect(expires - now).toBeLessThanOrEqual(ttl + 2 * window);
        expect(expires % window).toBe(0);
        expect(issued).toBeLessThanOrEqual(now);
      }
    }
  });
});
