import { describe, expect, it } from 'vitest';
import { FsObjectStore } from './fs-store.js';
import { uploadKey, uploadOfKey } from './keys.js';
import { MinioObjectStore, type MinioStoreOptions } from './minio-store.js';
import { renditionKey } from './renditions.js';
import { keyFromFilesUrl, keyFromS3Url } from './url-keys.js';
import { withTimeouts } from './timed-store.js';

const key = uploadKey('8f0c2a9e-1b7d-4c55-9a43-0d2e6f1b3c77', 'abc123', 'image/jpeg');
const APP = 'http://127.0.0.1:3000';

function fsStore(publicUrl: string): FsObjectStore {
  return new FsObjectStore({
    dir: '/nonexistent',
    publicUrl,
    signingSecret: 'x'.repeat(32),
    ttlSeconds: 60,
    windowSeconds: 3600,
  });
}

function s3Store(options: Partial<MinioStoreOptions>): MinioObjectStore {
  return new MinioObjectStore({
    endPoint: 'minio.internal',
    port: 9000,
    useSSL: false,
    accessKey: 'access',
    secretKey: 'secret-secret',
    bucket: 'prodshot',
    region: 'us-east-1',
    ttlSeconds: 60,
    windowSeconds: 3600,
    ...options,
  });
}

describe('filesystem links read back to their keys', () => {
  it('reads the key of an absolute link, its renditions and one whose signature has expired', async () => {
    const store = fsStore('https://app.example.com');
    expect(store.keyOfUrl(await store.signedUrl(key), APP)).toBe(key);
    expect(store.keyOfUrl(await store.signedUrl(renditionKey(key, 'preview')), APP)).toBe(renditionKey(key, 'preview'));
    expect(store.keyOfUrl(`https://app.example.com/api/files/${key}?expires=1&signature=stale`, APP)).toBe(key);
  });

  it('reads relative links against the app origin when the store hands out relative ones', async () => {
    const store = fsStore('');
    const link = await store.signedUrl(key);
    expect(link.startsWith('/api/files/')).toBe(true);
    expect(store.keyOfUrl(link, APP)).toBe(key);
    expect(store.keyOfUrl(`${APP}${link}`, APP)).toBe(key);
    expect(store.keyOfUrl(`https://elsewhere.example${link}`, APP)).toBeNull();
  });

  it('follows a public URL with a path', () => {
    expect(keyFromFilesUrl(`https://example.com/shop/api/files/${key}`, 'https://example.com/shop')).toBe(key);
    expect(keyFromFilesUrl(`https://example.com/api/files/${key}`, 'https://example.com/shop')).toBeNull();
  });

  it.each([
    ['another host', `https://evil.example/api/files/${key}`],
    ['a protocol-relative host', `//evil.example/api/files/${key}`],
    ['another port', `https://app.example.com:8443/api/files/${key}`],
    ['another route', `https://app.example.com/api/images/${key}`],
    ['traversal out of the route', 'https://app.example.com/api/files/%2e%2e/images/x.png'],
    ['a dot-dot segment', 'https://app.example.com/api/files/users/u/uploads/f..png/..x'],
    ['an encoded slash', 'https://app.example.com/api/files/users%2Fu/uploads/f.png'],
    ['bad escapes', 'https://app.example.com/api/files/users/u/uploads/%E0%A4%A.png'],
    ['a data URL', 'data:image/png;base64,iVBORw0KGgo='],
    ['a file URL', `file:///api/files/${key}`],
    ['nonsense', 'http://['],
  ])('refuses %s', (_name, url) => {
    expect(fsStore('https://app.example.com').keyOfUrl(url, APP)).toBeNull();
  });
});

describe('S3 presigned links read back to their keys', () => {
  it('reads path-style links (MinIO), with the port they name', async () => {
    const store = s3Store({});
    const link = await store.signedUrl(key);
    expect(link).toMatch(/^http:\/\/minio\.internal:9000\/prodshot\/users\/.+X-Amz-Signature=/);
    expect(store.keyOfUrl(link)).toBe(key);
    expect(store.keyOfUrl(link.replace(':9000', ':9001'))).toBeNull();
    expect(store.keyOfUrl(link.replace('/prodshot/', '/other-bucket/'))).toBeNull();
    expect(store.keyOfUrl(link.replace('http:', 'https:'))).toBeNull();
  });

  it('reads links signed for the public URL, not the internal endpoint', async () => {
    const store = s3Store({ publicUrl: 'https://files.example.com' });
    const link = await store.signedUrl(renditionKey(key, 'thumbnail'));
    expect(link.startsWith('https://files.example.com/prodshot/')).toBe(true);
    expect(store.keyOfUrl(link)).toBe(renditionKey(key, 'thumbnail'));
    expect(store.keyOfUrl(`http://minio.internal:9000/prodshot/${key}`)).toBeNull();
  });

  it('reads virtual-hosted links (AWS S3)', async () => {
    const store = s3Store({ endPoint: 's3.amazonaws.com', port: undefined, useSSL: true });
    const link = await store.signedUrl(key);
    expect(link.startsWith('https://prodshot.s3.us-east-1.amazonaws.com/users/')).toBe(true);
    expect(store.keyOfUrl(link)).toBe(key);
    expect(
      keyFromS3Url(`https://s3.amazonaws.com/prodshot/${key}?X-Amz-Expires=1`, {
        endPoint: 's3.amazonaws.com',
        useSSL: true,
        bucket: 'prodshot',
      }),
    ).toBe(key);
    expect(
      keyFromS3Url(`https://other.s3.amazonaws.com/${key}`, {
        endPoint: 's3.amazonaws.com',
        useSSL: true,
        bucket: 'prodshot',
      }),
    ).toBeNull();
  });

  it('refuses relative links and foreign hosts', () => {
    const store = s3Store({});
    expect(store.keyOfUrl(`/prodshot/${key}`)).toBeNull();
    expect(store.keyOfUrl(`http://evil.example:9000/prodshot/${key}`)).toBeNull();
  });

  it('is passed through by the timed wrapper', async () => {
    const store = withTimeouts(s3Store({}), 1000);
    expect(store.keyOfUrl(await store.signedUrl(key), APP)).toBe(key);
  });
});

describe('uploadOfKey', () => {
  it('names the upload of its own key and of the files made from it', () => {
    const owner = { userId: '8f0c2a9e-1b7d-4c55-9a43-0d2e6f1b3c77', fileId: 'abc123' };
    expect(uploadOfKey(key)).toEqual(owner);
    expect(uploadOfKey(renditionKey(key, 'thumbnail'))).toEqual(owner);
    expect(uploadOfKey(`users/${owner.userId}/uploads/abc123/cutout-250-667.png`)).toEqual(owner);
  });

  it('names no upload for a generation output or a key outside the layout', () => {
    expect(uploadOfKey('users/u1/generations/g1/0.png')).toBeNull();
    expect(uploadOfKey('users/u1/uploads/f1/deeper/x.png')).toBeNull();
    expect(uploadOfKey('other/u1/uploads/f1.png')).toBeNull();
  });
});
