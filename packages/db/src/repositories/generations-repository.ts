// Over 250 lines: every read and write of a generation's row and its outputs; the slot writes sit in
// generation-slots-repository.ts, which this extends.
import { sql } from 'kysely';
import { GENERATION_FAILED_MESSAGE, type ProductInfo } from '@prodshot/contracts';
import type { GenerationKind, GenerationRow, GenerationStyleRow } from '../schema.js';
import { GenerationSlotsRepository, SETTLED, slotsTable, type NewSlot } from './generation-slots-repository.js';
import { generationInHistory } from './history-retention.js';
import { after, micros, toPage, type CountedPage, type ListPosition } from './keyset.js';
import { isUuid } from './uuid.js';

export type { NewSlot, OutputFiles, RetriedSlot } from './generation-slots-repository.js';

export interface NewGeneration {
  userId: string;
  imageId: string | null;
  kind: GenerationKind;
  stage: string | null;
  request: Record<string, unknown>;
  slots: NewSlot[];
  /** The batch this generation is one photo of, and its place there. */
  batch?: { id: string; position: number } | undefined;
}

export interface GenerationWithStyles extends GenerationRow {
  styles: GenerationStyleRow[];
}

export interface StaleSlot {
  generationId: string;
  index: number;
  userId: string;
  attempt: number;
}

export interface RecentOutput {
  id: string;
  generationId: string;
  /** The slot's index within its generation. */
  index: number;
  resultKey: string;
  renditions: boolean;
  /** The style's name, which heads the output's popup. */
  name: string;
  /** Sizes and the download copy as the slot recorded them (GenerationStyleRow's). */
  files: Pick<GenerationStyleRow, 'result_bytes' | 'download_key' | 'download_bytes'>;
  createdAt: Date;
}

/**
 * Generations and their style slots (the slots' own state changes are GenerationSlotsRepository's).
 * Every state change is a conditional update, so a job that runs twice (a retry after a crash)
 * cannot move a settled slot or settle a generation twice.
 */
export class GenerationsRepository extends GenerationSlotsRepository {
  /**
   * The generation and its slots in one statement (atomic on its own, and joining the caller's
   * transaction when built on one, so a generation and its reservation commit together).
   */
  async create(input: NewGeneration): Promise<GenerationRow> {
    const { rows } = await sql<GenerationRow>`
      with generation as (
        insert into generations (user_id, image_id, kind, stage, request, batch_id, batch_position)
        values (${input.userId}, ${input.imageId}, ${input.kind}, ${input.stage}, ${JSON.stringify(input.request)}, ${input.batch?.id ?? null}, ${input.batch?.position ?? null})
        returning *
      ),
      slots as (
        insert into generation_styles (generation_id, "index", name, prompt, background_type)
        select generation.id, slot."index", slot.name, slot.prompt, slot.background_type
        from generation,
          ${slotsTable(input.slots)}
      )
      select * from generation
    `.execute(this.db);
    return rows[0]!;
  }

  /**
   * The user's generation while their plan keeps it in history: an expired one reads as no
   * generation at all. One still running stays, as the purge never deletes it.
   */
  async findOwned(userId: string, id: string): Promise<GenerationWithStyles | undefined> {
    if (!isUuid(id)) return undefined;
    const generation = await this.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where(generationInHistory(userId))
      .executeTakeFirst();
    return generation ? { ...generation, styles: await this.styles(id) } : undefined;
  }

  async find(id: string): Promise<GenerationWithStyles | undefined> {
    if (!isUuid(id)) return undefined;
    const generation = await this.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
    return generation ? { ...generation, styles: await this.styles(id) } : undefined;
  }

  /**
   * Records the scene auto mode picked: its name and prompt on every slot not yet named, and what the
   * engine read of the product on the generation. Once only: a retried job finds its pick there.
   */
  async recordAutoScene(
    generationId: string,
    scene: { name: string; prompt: string },
    productInfo: ProductInfo,
  ): Promise<void> {
    // One statement, so the slots' names and the product info are written together.
    await sql`
      with named as (
        update generation_styles set name = ${scene.name}, prompt = ${scene.prompt}, updated_at = now()
        where generation_id = ${generationId} and prompt is null
      )
      update generations set product_info = ${JSON.stringify(productInfo)}, updated_at = now() where id = ${generationId}
    `.execute(this.db);
  }

  /** true while the generation is neither complete nor failed. */
  async isOpen(generationId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('generations')
      .select('status')
      .where('id', '=', generationId)
      .executeTakeFirst();
    return row !== undefined && !SETTLED.includes(row.status);
  }

  async setStage(
    id: string,
    stage: string,
    productInfo?: ProductInfo & { unsupportedProduct?: boolean },
  ): Promise<void> {
    await this.db
      .updateTable('generations')
      .set({
        stage,
        status: 'running',
        updated_at: sql`now()`,
        ...(productInfo ? { product_info: JSON.stringify(productInfo) } : {}),
      })
      .where('id', '=', id)
      .where('status', 'not in', SETTLED)
      .execute();
  }

  /**
   * Settles the generation once no slot is open: complete when any output exists, failed otherwise.
   * Returns the new status when this call settled it, null when slots are still open or it was settled before.
   */
  async settleIfDone(id: string, failure?: string): Promise<'complete' | 'failed' | null> {
    const row = await this.db
      .updateTable('generations')
      .set({
        status: sql`case when exists (select 1 from generation_styles s where s.generation_id = generations.id and s.status = 'complete') then 'complete' else 'failed' end`,
        error: sql`case when exists (select 1 from generation_styles s where s.generation_id = generations.id and s.status = 'complete') then null else coalesce(${failure ?? null}::text, error, ${GENERATION_FAILED_MESSAGE}::text) end`,
        completed_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', 'not in', SETTLED)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('generation_styles')
              .select('id')
              .where('generation_id', '=', id)
              .where('status', 'in', ['queued', 'running']),
          ),
        ),
      )
      .returning('status')
      .executeTakeFirst();
    return row ? (row.status as 'complete' | 'failed') : null;
  }

  /**
   * Open slots not updated for `olderThanMs`, whatever their generation's status (a slot a seller
   * opened on a settled generation included): candidates for the sweeper.
   */
  async staleOpenSlots(olderThanMs: number, limit = 500): Promise<StaleSlot[]> {
    const rows = await this.db
      .selectFrom('generation_styles as s')
      .innerJoin('generations as g', 'g.id', 's.generation_id')
      .select(['s.generation_id', 's.index', 's.attempt', 'g.user_id'])
      .where('s.status', 'in', ['queued', 'running'])
      .where('s.updated_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .orderBy('s.updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      generationId: row.generation_id,
      index: row.index,
      userId: row.user_id,
      attempt: row.attempt,
    }));
  }

  /** Unfinished generations with no open slot, not updated for `olderThanMs` (e.g. a smart run lost before it fanned out). */
  async staleWithoutOpenSlots(olderThanMs: number, limit = 200): Promise<GenerationRow[]> {
    return this.db
      .selectFrom('generations')
      .selectAll()
      .where('status', 'in', ['queued', 'running'])
      .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('generation_styles as s')
              .select('s.id')
              .whereRef('s.generation_id', '=', 'generations.id')
              .where('s.status', 'in', ['queued', 'running']),
          ),
        ),
      )
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  /** Client-driven recommendations delivered: nothing is owed until the seller opens a slot. */
  async completeRecommendations(id: string): Promise<void> {
    await this.db
      .updateTable('generations')
      .set({ status: 'complete', completed_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'not in', SETTLED)
      .execute();
  }

  /**
   * A page of the user's outputs (completed slots) whose generation their plan keeps in history,
   * newest first by the time each was made, and how many that history holds.
   */
  async outputsPage(
    userId: string,
    page: { limit: number; after?: ListPosition | undefined },
  ): Promise<CountedPage<RecentOutput>> {
    const outputs = this.db
      .selectFrom('generation_styles as s')
      .innerJoin('generations as g', 'g.id', 's.generation_id')
      .where('g.user_id', '=', userId)
      .where(generationInHistory(userId, 'g'))
      .where('s.status', '=', 'complete')
      .where('s.result_key', 'is not', null);
    let query = outputs
      .select([
        's.id',
        's.generation_id',
        's.index',
        's.name',
        's.result_key',
        's.renditions',
        's.result_bytes',
        's.download_key',
        's.download_bytes',
        's.updated_at',
      ])
      .select(micros('s.updated_at').as('position'))
      .orderBy('s.updated_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(page.limit + 1);
    if (page.after) query = query.where(after('s.updated_at', 's.id', page.after));
    const [rows, counted] = await Promise.all([
      query.execute(),
      outputs.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const { items, next } = toPage(rows, page.limit, (row) => row.position);
    return {
      items: items.map((r) => ({
        id: r.id,
        generationId: r.generation_id,
        index: r.index,
        resultKey: r.result_key!,
        renditions: r.renditions,
        name: r.name,
        files: { result_bytes: r.result_bytes, download_key: r.download_key, download_bytes: r.download_bytes },
        createdAt: r.updated_at,
      })),
      next,
      total: Number(counted.total),
    };
  }
}
