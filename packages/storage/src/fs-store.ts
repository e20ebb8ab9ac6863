import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, contentTypeForKey } from './keys.js';
import { ObjectNotFoundError, type ObjectStore, type StoredObject } from './object-store.js';
import { signingTimes, signPath } from './signed-url.js';
import { keyFromFilesUrl } from './url-keys.js';

export interface FsStoreOptions {
  dir: string;
  /** Base the signed paths are joined to, e.g. https://app.example.com, or '' for links relative to the app's origin. */
  publicUrl: string;
  signingSecret: string;
  /** The least time a URL stays valid once handed out. */
  ttlSeconds: number;
  /** URLs are cut once per window of this length (signingTimes). */
  windowSeconds: number;
}

/** Objects as files under one folder, served by the API's /api/files route behind signed URLs. */
export class FsObjectStore implements ObjectStore {
  readonly driver = 'fs' as const;
  private readonly root: string;

  constructor(private readonly options: FsStoreOptions) {
    this.root = path.resolve(options.dir);
  }

  async ensureReady(): Promise<void> {
    await mkdir(path.join(this.root, '.tmp'), { recursive: true });
  }

  async ping(): Promise<void> {
    await stat(this.root);
  }

  async put(key: string, body: Buffer, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a crash mid-write never leaves a half object under the real key.
    const temp = path.join(this.root, '.tmp', randomUUID());
    await writeFile(temp, body);
    await rename(temp, target);
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      throw this.notFoundOr(error, key);
    }
  }

  async getStream(key: string): Promise<StoredObject & { stream: ReturnType<typeof createReadStream> }> {
    const info = await this.stat(key);
    if (!info) throw new ObjectNotFoundError(key);
    return { ...info, stream: createReadStream(this.pathOf(key)) };
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.pathOf(key));
      // Weak: size and write time stand for the bytes, which are never hashed to serve them.
      return info.isFile()
        ? {
            size: info.size,
            contentType: contentTypeForKey(key),
            etag: `W/"${info.size.toString(16)}-${Math.round(info.mtimeMs * 1000).toString(16)}"`,
          }
        : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!prefix.endsWith('/')) throw new Error('deletePrefix needs a prefix ending in /');
    const dir = this.pathOf(prefix.slice(0, -1));
    const count = await countFiles(dir);
    await rm(dir, { recursive: true, force: true });
    return count;
  }

  async signedUrl(key: string, ttlSeconds = this.options.ttlSeconds): Promise<string> {
    const { expires } = signingTimes(this.options.windowSeconds, ttlSeconds);
    return `${this.options.publicUrl}${signPath(this.options.signingSecret, key, expires)}`;
  }

  keyOfUrl(url: string, appOrigin: string): string | null {
    return keyFromFilesUrl(url, this.options.publicUrl || appOrigin);
  }

  private pathOf(key: string): string {
    const resolved = path.resolve(this.root, assertSafeKey(key));
    // assertSafeKey already refuses traversal; this guards the join itself.
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`Key escapes the storage folder: ${key}`);
    return resolved;
  }

  private notFoundOr(error: unknown, key: string): unknown {
    return isNotFound(error) ? new ObjectNotFoundError(key) : error;
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function countFiles(dir: string): Promise<number> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).length;
  } catch (error) {
    if (isNotFound(error)) return 0;
    throw error;
  }
}
