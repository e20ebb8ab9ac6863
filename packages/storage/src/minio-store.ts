import type { Readable } from 'node:stream';
import { Client, type ClientOptions } from 'minio';
import { assertSafeKey } from './keys.js';
import { ObjectNotFoundError, type ObjectStore, type StoredObject } from './object-store.js';
import { signingTimes } from './signed-url.js';
import { keyFromS3Url } from './url-keys.js';

export interface MinioStoreOptions {
  endPoint: string;
  port: number | undefined;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** The least time a URL stays valid once handed out. */
  ttlSeconds: number;
  /** URLs are cut once per window of this length (signingTimes). */
  windowSeconds: number;
  /**
   * Where browsers reach the same bucket (e.g. https://files.example.com) when the endpoint the
   * servers use is internal. Presigning needs no network, so a second client signs for that host.
   */
  publicUrl?: string | undefined;
}

/** Objects in a MinIO or any S3-compatible bucket through the `minio` client. */
export class MinioObjectStore implements ObjectStore {
  readonly driver = 'minio' as const;
  private readonly client: Client;
  private readonly signer: Client;

  constructor(private readonly options: MinioStoreOptions) {
    const base: ClientOptions = {
      endPoint: options.endPoint,
      useSSL: options.useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      ...(options.port ? { port: options.port } : {}),
    };
    this.client = new Client(base);
    this.signer = options.publicUrl ? new Client({ ...base, ...clientTarget(options.publicUrl) }) : this.client;
  }

  async ensureReady(): Promise<void> {
    if (!(await this.client.bucketExists(this.options.bucket))) {
      await this.client.makeBucket(this.options.bucket, this.options.region);
    }
  }

  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.options.bucket))) {
      throw new Error(`Bucket ${this.options.bucket} does not exist`);
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(this.options.bucket, assertSafeKey(key), body, body.length, {
      'Content-Type': contentType,
    });
  }

  async get(key: string): Promise<Buffer> {
    const { stream } = await this.getStream(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async getStream(key: string): Promise<StoredObject & { stream: Readable }> {
    const info = await this.stat(key);
    if (!info) throw new ObjectNotFoundError(key);
    try {
      const stream = await this.client.getObject(this.options.bucket, key);
      return { ...info, stream };
    } catch (error) {
      throw isNotFound(error) ? new ObjectNotFoundError(key) : error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const info = await this.client.statObject(this.options.bucket, assertSafeKey(key));
      const contentType = info.metaData['content-type'] ?? 'application/octet-stream';
      return { size: info.size, contentType: String(contentType), etag: `"${info.etag}"` };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.removeObject(this.options.bucket, assertSafeKey(key));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!prefix.endsWith('/')) throw new Error('deletePrefix needs a prefix ending in /');
    assertSafeKey(prefix.slice(0, -1));
    const names: string[] = [];
    for await (const item of this.client.listObjectsV2(this.options.bucket, prefix, true)) {
      const name = (item as { name?: string }).name;
      if (name) names.push(name);
    }
    if (names.length > 0) await this.client.removeObjects(this.options.bucket, names);
    return names.length;
  }

  /**
   * Signed as if at the window's start, so the signature (and the URL) holds still for the whole
   * window. The bucket answers it with a Cache-Control for the time the link has left at the
   * window's end at the latest, so a browser never keeps the file past its link.
   */
  async signedUrl(key: string, ttlSeconds = this.options.ttlSeconds): Promise<string> {
    const { issued, expires } = signingTimes(this.options.windowSeconds, ttlSeconds);
    const cacheControl = `private, max-age=${expires - issued - this.options.windowSeconds}, immutable`;
    return this.signer.presignedGetObject(
      this.options.bucket,
      assertSafeKey(key),
      expires - issued,
      { 'response-cache-control': cacheControl },
      new Date(issued * 1000),
    );
  }

  keyOfUrl(url: string): string | null {
    const { publicUrl, endPoint, port, useSSL, bucket, region } = this.options;
    // Links are signed for the public host when one is set (see `signer`), else for the endpoint.
    return keyFromS3Url(url, { ...(publicUrl ? clientTarget(publicUrl) : { endPoint, port, useSSL }), bucket, region });
  }
}

function clientTarget(publicUrl: string): { endPoint: string; port: number; useSSL: boolean } {
  const url = new URL(publicUrl);
  const useSSL = url.protocol === 'https:';
  return { endPoint: url.hostname, useSSL, port: url.port ? Number(url.port) : useSSL ? 443 : 80 };
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === 'NotFound' || code === 'NoSuchKey';
}
