import { sql } from 'kysely';
import type { Db } from '../database.js';
import { historyCutoff, historyCutoffs, olderThanShortestHistory } from './history-retention.js';

export interface ExpiredGeneration {
  id: string;
  userId: string;
}

export interface ExpiredImage {
  id: string;
  userId: string;
  storageKey: string;
}

/** Neither queued nor running, and no slot open: nothing is writing to it or will charge for it. */
const SETTLED_GENERATION = sql<boolean>`g.status in ('complete', 'failed')
  and not exists (select 1 from generation_styles slot where slot.generation_id = g.id and slot.status in ('queued', 'running'))`;

/** No unfinished generation reads the upload. */
const UPLOAD_AT_REST = sql<boolean>`not exists (select 1 from generations g where g.image_id = i.id and g.status in ('queued', 'running'))`;

/**
 * What has outlived its owner's plan's history, for the purge job: it lists a batch, deletes its
 * files, then deletes the rows that are still expired. Credit ledger rows stay: their
 * generation_id becomes null (the foreign key sets it so) and their idempotency key still names
 * the generation.
 */
export class HistoryRepository {
  constructor(private readonly db: Db) {}

  /** Oldest first; a generation still running is never among them. */
  async expiredGenerations(limit: number): Promise<ExpiredGeneration[]> {
    const { rows } = await sql<{ id: string; user_id: string }>`
      select g.id, g.user_id
      from generations g
      join ${historyCutoffs()} h on h.user_id = g.user_id
      where ${olderThanShortestHistory('g.created_at')} and g.created_at < h.cutoff and ${SETTLED_GENERATION}
      order by g.created_at, g.id
      limit ${limit}
    `.execute(this.db);
    return rows.map((row) => ({ id: row.id, userId: row.user_id }));
  }

  /** Deletes those of `ids` still expired and settled (a plan upgraded meanwhile keeps them); returns the ids deleted. */
  async deleteGenerations(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql<{ id: string }>`
      delete from generations g
      where g.id = any(${ids}::uuid[]) and g.created_at < ${historyCutoff(sql.ref('g.user_id'))} and ${SETTLED_GENERATION}
      returning g.id
    `.execute(this.db);
    return rows.map((row) => row.id);
  }

  /**
   * Deletes up to `limit` batches none of whose generations is left (the purge took them): the
   * batch row holds the seller's prompt, so it goes with them. Returns the ids deleted. Only
   * batches older than the shortest history can be emptied, and a batch is never empty while it
   * is being opened (it and its generations are written in one transaction).
   */
  async deleteEmptyBatches(limit: number): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      delete from batches b
      where b.id in (
        select e.id from batches e
        where ${olderThanShortestHistory('e.created_at')} and not exists (select 1 from generations g where g.batch_id = e.id)
        order by e.created_at, e.id
        limit ${limit}
      )
      returning b.id
    `.execute(this.db);
    return rows.map((row) => row.id);
  }

  /** Oldest first; an upload an unfinished generation reads is never among them. */
  async expiredImages(limit: number): Promise<ExpiredImage[]> {
    const { rows } = await sql<{ id: string; user_id: string; storage_key: string }>`
      select i.id, i.user_id, i.storage_key
      from images i
      join ${historyCutoffs()} h on h.user_id = i.user_id
      where ${olderThanShortestHistory('i.created_at')} and i.created_at < h.cutoff and ${UPLOAD_AT_REST}
      order by i.created_at, i.id
      limit ${limit}
    `.execute(this.db);
    return rows.map((row) => ({ id: row.id, userId: row.user_id, storageKey: row.storage_key }));
  }

  /** Deletes those of `ids` still expired and at rest; their generations stay, without image_id. Returns the ids deleted. */
  async deleteImages(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql<{ id: string }>`
      delete from images i
      where i.id = any(${ids}::uuid[]) and i.created_at < ${historyCutoff(sql.ref('i.user_id'))} and ${UPLOAD_AT_REST}
      returning i.id
    `.execute(this.db);
    return rows.map((row) => row.id);
  }
}
