import { describe, expect, it } from 'vitest';
import { signPath, verifySignature } from './signed-url.js';

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
