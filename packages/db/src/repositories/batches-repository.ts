import type { Db } from '../database.js';
import type { BatchRow, GenerationStyleRow, ImageRow } from '../schema.js';
import type { GenerationWithStyles } from './generations-repository.js';
import { generationInHistory, historyCutoff } from './history-retention.js';
import { isUuid } from './uuid.js';

export interface BatchGeneration extends GenerationWithStyles {
  /** The upload it works on, while the seller keeps it and their history shows it; its name is the file's the seller uploaded. */
  image: Pick<ImageRow, 'storage_key' | 'renditions' | 'name'> | null;
}

export interface BatchWithGenerations extends BatchRow {
  /** In the order the seller listed the photos. */
  generations: BatchGeneration[];
}

/** Batches and the generations they own. Another user's batch reads as no batch at all. */
export class BatchesRepository {
  constructor(private readonly db: Db) {}

  async create(input: { userId: string; choice: Record<string, unknown>; credits: number }): Promise<BatchRow> {
    return this.db
      .insertInto('batches')
      .values({ user_id: input.userId, choice: JSON.stringify(input.choice), credits: input.credits })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async findOwned(userId: string, id: string): Promise<BatchWithGenerations | undefined> {
    const batch = await this.find(id);
    return batch?.user_id === userId ? batch : undefined;
  }

  /**
   * Whoever's it is: for a caller that proved its right some other way (a signed archive link).
   * Only what its owner's history shows: generations past it (outputs, prompts and all) read as
   * gone, as do uploads past it, and a batch with none left reads as no batch at all, as it will
   * be once the purge deletes it.
   */
  async find(id: string): Promise<BatchWithGenerations | undefined> {
    if (!isUuid(id)) return undefined;
    const batch = await this.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
    if (!batch) return undefined;
    const generations = await this.db
      .selectFrom('generations')
      .selectAll()
      .where('batch_id', '=', id)
      .where(generationInHistory(batch.user_id))
      .orderBy('batch_position')
      .execute();
    if (generations.length === 0) return undefined;
    const styles = await this.db
      .selectFrom('generation_styles')
      .selectAll()
      .where(
        'generation_id',
        'in',
        generations.map((g) => g.id),
      )
      .orderBy('index')
      .execute();
    const imageIds = generations.flatMap((g) => (g.image_id ? [g.image_id] : []));
    const images = imageIds.length
      ? await this.db
          .selectFrom('images')
          .select(['id', 'storage_key', 'renditions', 'name'])
          .where('id', 'in', imageIds)
          .where('created_at', '>=', historyCutoff(batch.user_id))
          .execute()
      : [];
    const byGeneration = new Map<string, GenerationStyleRow[]>();
    for (const style of styles)
      byGeneration.set(style.generation_id, [...(byGeneration.get(style.generation_id) ?? []), style]);
    return {
      ...batch,
      generations: generations.map((g) => ({
        ...g,
        styles: byGeneration.get(g.id) ?? [],
        image: images.find((image) => image.id === g.image_id) ?? null,
      })),
    };
  }
}
