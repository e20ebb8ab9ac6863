import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { GenerationsRepository, ImagesRepository, type Db } from '@prodshot/db';
import { generationOutputKey, uploadKey } from '@prodshot/storage';

export interface HistoryRows {
  /** `count` upload rows, straight through the repository (no decode, no engine); their ids. */
  addUploads(userId: string, count: number): Promise<string[]>;
  /** A generation with `outputs` completed slots, settled or still running; its id and its outputs' ids. */
  addGeneration(
    userId: string,
    outputs: number,
    status?: 'complete' | 'running',
  ): Promise<{ id: string; outputIds: string[] }>;
  /** Moves rows back in time, as if made `days` ago. */
  age(table: 'images' | 'generations', ids: string[], days: number): Promise<void>;
}

/** Uploads and generations written straight into the database, to page through and to age past a plan's history. */
export function historyRows(db: Db): HistoryRows {
  const images = new ImagesRepository(db);
  const generations = new GenerationsRepository(db);
  return {
    async addUploads(userId, count) {
      const ids: string[] = [];
      for (let start = 0; start < count; start += 50) {
        const rows = await Promise.all(
          Array.from({ length: Math.min(50, count - start) }, () => {
            const fileId = randomUUID();
            return images.create({
              user_id: userId,
              file_id: fileId,
              name: `photo ${fileId.slice(0, 4)}`,
              storage_key: uploadKey(userId, fileId, 'image/png'),
              content_type: 'image/png',
              width: 64,
              height: 64,
              bytes: 100,
            });
          }),
        );
        ids.push(...rows.map((row) => row.id));
      }
      return ids;
    },
    async addGeneration(userId, outputs, status = 'complete') {
      const slots = Array.from({ length: outputs }, (_, index) => ({
        index,
        name: 'Marble',
        prompt: null,
        backgroundType: 'marble',
      }));
      const generation = await generations.create({
        userId,
        imageId: null,
        kind: 'manual',
        stage: null,
        request: {},
        slots,
      });
      for (const slot of slots)
        await generations.completeStyle(
          generation.id,
          slot.index,
          generationOutputKey(userId, generation.id, slot.index, 'image/png'),
        );
      if (status === 'complete') await generations.settleIfDone(generation.id);
      else await db.updateTable('generations').set({ status: 'running' }).where('id', '=', generation.id).execute();
      return { id: generation.id, outputIds: (await generations.styles(generation.id)).map((style) => style.id) };
    },
    async age(table, ids, days) {
      await db
        .updateTable(table)
        .set({ created_at: sql`now() - make_interval(days => ${days})` })
        .where('id', 'in', ids)
        .execute();
    },
  };
}
