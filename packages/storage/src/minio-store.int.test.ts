import { describe, expect, inject, it } from 'vitest';
import { createTestS3Store } from '@prodshot/testing';
import { uploadKey } from './keys.js';
import { describeObjectStoreContract, expiryOf } from './object-store-contract.test-support.js';

const stack = inject('stack');

// The same suite as the filesystem driver, against MinIO (containers) or s3rver (local mode).
describeObjectStoreContract(`S3 driver on ${stack.s3.kind}`, () => createTestS3Store(stack));

describe('S3 presigned links', () => {
  it('have the bucket answer with a Cache-Control no longer than the link has left', async () => {
    const store = await createTestS3Store(stack);
    const key = uploadKey('user-a', 'cached', 'image/png');
    await store.put(key, Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png');
    const signed = await store.signedUrl(key, 600);
    const response = await fetch(signed);
    expect(response.status).toBe(200);
    const maxAge = Number(/^private, max-age=(\d+), immutable$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    const secondsLeft = expiryOf(signed) - Date.now() / 1000;
    expect(maxAge).toBeGreaterThanOrEqual(600);
    expect(maxAge).toBeLessThanOrEqual(secondsLeft);
  });
});
