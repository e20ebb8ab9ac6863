import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from './object-store.js';
import { readZip } from '@prodshot/testing';
import { imageExtension, streamArchive } from './archive.js';

/** A store whose objects arrive in small chunks, counting how many of them are open at once. */
function chunkyStore(objects: Record<string, Buffer>) {
  let open = 0;
  let mostOpen = 0;
  const store = {
    async getStream(key: string) {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      const bytes = objects[key]!;
      const chunks = Array.from({ length: Math.ceil(bytes.length / 5) }, (_, n) => bytes.subarray(n * 5, n * 5 + 5));
      const stream = Readable.from(chunks, { objectMode: false }).pipe(new PassThrough());
      stream.on('end', () => (open -= 1));
      return { stream, contentType: 'image/png', size: bytes.length, etag: key };
    },
  } as unknown as ObjectStore;
  return { store, mostOpen: () => mostOpen };
}

describe('streamArchive', () => {
  it('reads one stored file at a time into the zip, naming each by its bytes and never the same name twice', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#654321' } })
      .jpeg()
      .toBuffer();
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#abcdef' } })
      .webp()
      .toBuffer();
    const { store, mostOpen } = chunkyStore({ a: png, b: jpeg, c: webp, d: png });
    const zip = await buffer(
      streamArchive(store, [
        { key: 'a', baseName: 'mug-studio-1' },
        { key: 'b', baseName: 'mug-studio-2' },
        { key: 'c', baseName: 'cap-marble-1' },
        { key: 'd', baseName: 'mug-studio-1' },
      ]),
    );
    const entries = await readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual([
      'mug-studio-1.png',
      'mug-studio-2.jpg',
      'cap-marble-1.webp',
      'mug-studio-1-2.png',
    ]);
    expect(entries.map((entry) => entry.data)).toEqual([png, jpeg, webp, png]);
    expect(mostOpen()).toBe(1);
  });

  it('ends the download with an error when a stored file cannot be read, rather than leaving a shot out', async () => {
    const store = { getStream: () => Promise.reject(new Error('storage is down')) } as unknown as ObjectStore;
    await expect(buffer(streamArchive(store, [{ key: 'x', baseName: 'x' }]))).rejects.toThrow('storage is down');
  });
});

describe('imageExtension', () => {
  it('tells PNG, JPEG and WebP by their first bytes, and anything else as bin', () => {
    expect(imageExtension(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('png');
    expect(imageExtension(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('jpg');
    expect(imageExtension(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('webp');
    expect(imageExtension(Buffer.from('GIF89a'))).toBe('bin');
  });
});
