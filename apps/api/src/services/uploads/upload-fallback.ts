import type { Repositories } from '@prodshot/db';
import { renditionKey, type ObjectStore } from '@prodshot/storage';
import { imageNotFound } from './image-url.js';

/** Which stored file stands in for an upload whose signed URL failed to load. */
export class UploadFallbackService {
  constructor(
    private readonly repos: Repositories,
    private readonly store: ObjectStore,
  ) {}

  /** The owner's upload as its thumbnail, or the upload itself where it has none; another user's is no upload (404). */
  async fileKey(userId: string, imageId: string): Promise<string> {
    const row = await this.repos.images.findOwned(userId, imageId);
    if (!row) throw imageNotFound();
    const thumbnail = row.renditions ? renditionKey(row.storage_key, 'thumbnail') : null;
    return thumbnail && (await this.store.stat(thumbnail)) ? thumbnail : row.storage_key;
  }
}
