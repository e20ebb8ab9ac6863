import { sql } from 'kysely';
import { withTransaction, type Db } from '../database.js';
import { withProductWarnings, type CoachWarning, type SubjectFinding, type UploadOutline } from '@prodshot/contracts';
import type { ImageRow, NewImage } from '../schema.js';
import { historyCutoff } from './history-retention.js';
import { after, micros, toPage, type CountedPage, type ListPosition } from './keyset.js';
import { isUuid } from './uuid.js';

/**
 * Uploads. Every read takes the owner's id, so another user's image is simply not found, and sees
 * only what the owner's plan keeps in history: an expired upload reads as no upload at all.
 */
export class ImagesRepository {
  constructor(private readonly db: Db) {}

  async create(image: NewImage): Promise<ImageRow> {
    return this.db.insertInto('images').values(image).returningAll().executeTakeFirstOrThrow();
  }

  /** A page of the user's uploads within their history, newest first, and how many that history holds. */
  async listPage(
    userId: string,
    page: { limit: number; after?: ListPosition | undefined },
  ): Promise<CountedPage<ImageRow>> {
    const inHistory = this.db
      .selectFrom('images')
      .where('user_id', '=', userId)
      .where('created_at', '>=', historyCutoff(userId));
    let query = inHistory
      .selectAll()
      .select(micros('created_at').as('position'))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1);
    if (page.after) query = query.where(after('created_at', 'id', page.after));
    const [rows, counted] = await Promise.all([
      query.execute(),
      inHistory.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const { items, next } = toPage(rows, page.limit, (row) => row.position);
    return { items: items.map(({ position: _position, ...row }) => row), next, total: Number(counted.total) };
  }

  /** By row id or by fileId, as the spec's calls send either. */
  async findOwned(userId: string, idOrFileId: string): Promise<ImageRow | undefined> {
    return this.db
      .selectFrom('images')
      .selectAll()
      .where('user_id', '=', userId)
      .where('created_at', '>=', historyCutoff(userId))
      .where((eb) =>
        isUuid(idOrFileId)
          ? eb.or([eb('id', '=', idOrFileId), eb('file_id', '=', idOrFileId)])
          : eb('file_id', '=', idOrFileId),
      )
      .executeTakeFirst();
  }

  async deleteOwned(userId: string, id: string): Promise<ImageRow | undefined> {
    const image = await this.findOwned(userId, id);
    if (!image) return undefined;
    await this.db.deleteFrom('images').where('id', '=', image.id).where('user_id', '=', userId).execute();
    return image;
  }

  /**
   * Records what the cutout model found (the worker, once per upload), with the coach's product
   * checks beside the pixel checks the upload already holds; answers the upload's warnings now.
   */
  async setSubject(
    id: string,
    subject: SubjectFinding,
    productWarnings: readonly CoachWarning[] = [],
  ): Promise<CoachWarning[]> {
    return (await this.writeSubject(id, subject, productWarnings, () => true)) ?? [];
  }

  /**
   * A refused upload whose product the seller's tap found: the refusal gives way to `found`, and its
   * coach warning goes with it; answers the upload's warnings then. An upload the engine found, or
   * not yet analysed, is left as it is (undefined).
   */
  async replaceRefusal(id: string, found: SubjectFinding & { found: true }): Promise<CoachWarning[] | undefined> {
    return this.writeSubject(id, found, [], (current) => current?.found === false);
  }

  /** The finding and its product warnings, written when `replaces` holds for the row's finding (locked meanwhile). */
  private writeSubject(
    id: string,
    subject: SubjectFinding,
    productWarnings: readonly CoachWarning[],
    replaces: (current: SubjectFinding | null | undefined) => boolean,
  ): Promise<CoachWarning[] | undefined> {
    return withTransaction(this.db, async (tx) => {
      const row = await tx
        .selectFrom('images')
        .select(['subject', 'coach'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!replaces(row?.subject)) return undefined;
      const coach = withProductWarnings(row?.coach ?? [], productWarnings);
      await tx
        .updateTable('images')
        .set({ subject: JSON.stringify(subject), coach: JSON.stringify(coach) })
        .where('id', '=', id)
        .execute();
      return coach;
    });
  }

  /** Records the outline the worker made (the engine's pick or the seller's tap), unconfirmed. */
  async setOutline(id: string, outline: UploadOutline): Promise<void> {
    await this.db
      .updateTable('images')
      .set({ outline: JSON.stringify(outline) })
      .where('id', '=', id)
      .execute();
  }

  /** The seller's "Yes, that's my product" on the outline they see; undefined when the user has no such image or it has no outline yet. */
  async confirmOutline(userId: string, id: string): Promise<ImageRow | undefined> {
    const image = await this.findOwned(userId, id);
    if (!image?.outline) return undefined;
    return this.db
      .updateTable('images')
      .set({ outline: sql`outline || '{"confirmed": true}'::jsonb` })
      .where('id', '=', image.id)
      .where('user_id', '=', userId)
      .where('outline', 'is not', null)
      .returningAll()
      .executeTakeFirst();
  }

  /** Names the product of the owner's upload; undefined when the user has no such image. */
  async setProductTitle(userId: string, id: string, title: string | null): Promise<ImageRow | undefined> {
    const image = await this.findOwned(userId, id);
    if (!image) return undefined;
    return this.db
      .updateTable('images')
      .set({ product_title: title })
      .where('id', '=', image.id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Records that the upload's thumbnail and preview are stored beside it. */
  async setRenditions(id: string): Promise<void> {
    await this.db.updateTable('images').set({ renditions: true }).where('id', '=', id).execute();
  }
}
