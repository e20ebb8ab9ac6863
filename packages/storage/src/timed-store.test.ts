import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MinioObjectStore } from './minio-store.js';
import { StorageTimeoutError, withTimeouts } from './timed-store.js';

let silent: net.Server;
let port: number;
const sockets = new Set<net.Socket>();

// An S3 endpoint that accepts connections and never answers: a hung MinIO.
beforeAll(async () => {
  silent = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('withTimeouts', () => {
  it('fails every call a hung store never answers, naming the call', async () => {
    const hung = new MinioObjectStore({
      endPoint: '127.0.0.1',
      port,
      useSSL: false,
      accessKey: 'key',
      secretKey: 'secret-key',
      bucket: 'prodshot',
      region: 'us-east-1',
      ttlSeconds: 60,
      windowSeconds: 3600,
      publicUrl: undefined,
    });
    const store = withTimeouts(hung, 200);
    await expect(store.put('users/u/uploads/f/original.png', Buffer.from('x'), 'image/png')).rejects.toThrow(
      new StorageTimeoutError('put', 200),
    );
    await expect(store.get('users/u/uploads/f/original.png')).rejects.toBeInstanceOf(StorageTimeoutError);
    await expect(store.stat('users/u/uploads/f/original.png')).rejects.toMatchObject({ code: 'storage_timeout' });
  });
});
