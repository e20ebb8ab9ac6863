import type { Db } from '../database.js';
import type { SubjectFinding } from '@prodshot/contracts';
import type { ImageRow, NewImage } from '../schema.js';
import { isUuid } from './uuid.js';

/** Uploads. Every read takes the owner's id, so another user's image is simply not found. */
export class ImagesRepository {
  constructor(private readonly db: Db) {}

  async create(image: NewImage): Promise<ImageRow> {
    return this.db.insertInto('images').values(image).returningAll().executeTakeFirstOrThrow();
  }

  async listByUser(userId: string, limit = 500): Promise<ImageRow[]> {
    return this.db
      .selectFrom('images')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** By row id or by fileId, as the spec's calls send either. */
  async findOwned(userId: string, idOrFileId: string): Promise<ImageRow | undefined> {
    return this.db
      .selectFrom('images')
      .selectAll()
      .where('user_id', '=', userId)
      .where((eb) => (isUuid(idOrFileId) ? eb.or([eb('id', '=', idOrFileId), eb('file_id', '=', idOrFileId)]) : eb('file_id', '=', idOrFileId)))
      .executeTakeFirst();
  }

  async deleteOwned(userId: string, id: string): Promise<ImageRow | undefined> {
    const image = await this.findOwned(userId, id);
    if (!image) return undefined;
    await this.db.deleteFrom('images').where('id', '=', image.id).where('user_id', '=', userId).execute();
    return image;
  }

  /** Records what the cutout model found (the worker, once per upload). */
  async setSubject(id: string, subject: SubjectFinding): Promise<void> {
    await this.db.updateTable('images').set({ subject: JSON.stringify(subject) }).where('id', '=', id).execute();
  }

  /** Records that the upload's thumbnail and preview are stored beside it. */
  async setRenditions(id: string): Promise<void> {
    await this.db.updateTable('images').set({ renditions: true }).where('id', '=', id).execute();
  }
}
