import { describe, expect, it, vi } from 'vitest';
import { InvalidKeyError, uploadKey } from './keys.js';
import { ObjectNotFoundError, type ObjectStore } from './object-store.js';

/** When a signed URL stops working, in seconds since the epoch, whichever way its driver writes it. */
export function expiryOf(signed: string): number {
  const query = new URL(signed).searchParams;
  const expires = query.get('expires');
  if (expires) return Number(expires);
  const issued = query
    .get('X-Amz-Date')!
    .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
  return Date.parse(issued) / 1000 + Number(query.get('X-Amz-Expires'));
}

/** One behavioural suite that every ObjectStore driver must pass. */
export function describeObjectStoreContract(name: string, makeStore: () => Promise<ObjectStore>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

    it('stores, stats, reads and streams an object', async () => {
      const store = await makeStore();
      const key = uploadKey('user-a', 'file-1', 'image/png');
      await store.put(key, png, 'image/png');
      expect(await store.stat(key)).toEqual({
        size: png.length,
        contentType: 'image/png',
        etag: expect.stringMatching(/^(W\/)?"[^"]+"$/),
      });
      expect((await store.get(key)).equals(png)).toBe(true);
      const { stream, size } = await store.getStream(key);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      expect(size).toBe(png.length);
      expect(Buffer.concat(chunks).equals(png)).toBe(true);
    });

    it('overwrites an object under the same key', async () => {
      const store = await makeStore();
      const key = uploadKey('user-a', 'file-2', 'image/png');
      await store.put(key, Buffer.from('first'), 'image/png');
      const first = await store.stat(key);
      await store.put(key, Buffer.from('second'), 'image/png');
      expect((await store.get(key)).toString()).toBe('second');
      expect((await store.stat(key))!.etag).not.toBe(first!.etag);
    });

    it('reports missing objects as null or ObjectNotFoundError', async () => {
      const store = await makeStore();
      const key = uploadKey('user-a', 'missing', 'image/png');
      expect(await store.stat(key)).toBeNull();
      await expect(store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(store.getStream(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('deletes idempotently and by prefix without touching other users', async () => {
      const store = await makeStore();
      const a1 = uploadKey('user-a', 'one', 'image/png');
      const a2 = uploadKey('user-a', 'two', 'image/jpeg');
      const b1 = uploadKey('user-b', 'one', 'image/png');
      for (const key of [a1, a2, b1]) await store.put(key, png, 'image/png');
      await store.delete(a1);
      await store.delete(a1);
      expect(await store.stat(a1)).toBeNull();
      expect(await store.deletePrefix('users/user-a/')).toBe(1);
      expect(await store.stat(a2)).toBeNull();
      expect(await store.stat(b1)).not.toBeNull();
    });

    it('refuses traversal and malformed keys', async () => {
      const store = await makeStore();
      for (const key of ['../etc/passwd', 'users/../../x', '/abs/key', 'users\\x', 'users//x', '']) {
        await expect(store.put(key, png, 'image/png')).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidKeyError);
      }
    });

    it('signs a URL that fetches the object', async () => {
      const store = await makeStore();
      const key = uploadKey('user-a', 'signed', 'image/png');
      await store.put(key, png, 'image/png');
      const url = await store.signedUrl(key, 60);
      expect(url).toMatch(/^https?:\/\//);
      expect(url).toContain('signed');
    });

    it('hands out one URL per file all through a signing window, valid at least the TTL, and a new one in the next', async () => {
      const store = await makeStore();
      const key = uploadKey('user-a', 'windowed', 'image/png');
      const hour = Date.UTC(2031, 4, 6, 10);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(hour + 1_000);
        const first = await store.signedUrl(key, 600);
        vi.setSystemTime(hour + 3_599_000);
        const late = await store.signedUrl(key, 600);
        expect(late).toBe(first);
        expect(expiryOf(late) - (hour + 3_599_000) / 1000).toBeGreaterThanOrEqual(600);
        vi.setSystemTime(hour + 3_600_000);
        const next = await store.signedUrl(key, 600);
        expect(next).not.toBe(first);
        expect(expiryOf(next)).toBe(expiryOf(first) + 3600);
      } finally {
        vi.useRealTimers();
      }
    });
  });
}
