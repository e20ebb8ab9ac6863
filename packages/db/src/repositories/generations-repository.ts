// Over 250 lines: a generation and its output slots change together (starting or retrying a slot moves
// its generation in the same statement, settling reads every slot), so one class reads and writes both.
import { sql } from 'kysely';
import { GENERATION_FAILED_MESSAGE, type ProductInfo } from '@prodshot/contracts';
import type { Db } from '../database.js';
import type { GenerationKind, GenerationRow, GenerationStyleRow } from '../schema.js';
import { generationInHistory } from './history-retention.js';
import { after, micros, toPage, type CountedPage, type ListPosition } from './keyset.js';
import { SETTLED } from './settled-statuses.js';
import { isUuid } from './uuid.js';

export interface NewSlot {
  index: number;
  name: string;
  prompt: string | null;
  backgroundType: string | null;
}

/** A failed slot put back in the queue by a retry: what its new attempt renders. */
export interface RetriedSlot {
  index: number;
  name: string;
  prompt: string | null;
  attempt: number;
}

/** A stored output's size and its download copy's: lists and zips name them without asking storage. */
export interface OutputFiles {
  resultBytes: number;
  /** null when the output itself is what Download saves (it is a JPEG already). */
  download: { key: string; bytes: number } | null;
}

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
 * Generations and their output slots. Every state change is a conditional update, so a job that
 * runs twice (a retry after a crash) cannot move a settled slot or settle a generation twice.
 */
export class GenerationsRepository {
  constructor(private readonly db: Db) {}

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

  async styles(generationId: string): Promise<GenerationStyleRow[]> {
    return this.db
      .selectFrom('generation_styles')
      .selectAll()
      .where('generation_id', '=', generationId)
      .orderBy('index')
      .execute();
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
   * Adds slots once (a retried fan-out finds them already there), only while the generation is
   * open: a late attempt of a generation already settled and refunded must not open paid work.
   * false when the generation is settled (or missing).
   */
  async addSlots(generationId: string, slots: NewSlot[]): Promise<boolean> {
    // One statement: the generation's row lock holds off a concurrent settle until the slots are in.
    const { rows } = await sql<{ id: string }>`
      with open as (
        select id from generations where id = ${generationId} and status not in ('complete', 'failed') for update
      ),
      slots as (
        insert into generation_styles (generation_id, "index", name, prompt, background_type)
        select open.id, slot."index", slot.name, slot.prompt, slot.background_type
        from open,
          ${slotsTable(slots)}
        on conflict (generation_id, "index") do nothing
      )
      select id from open
    `.execute(this.db);
    return rows.length > 0;
  }

  /**
   * A seller's new paid slot on a generation, settled or not: the generation is open again until
   * that slot settles, so the sweeper and settleIfDone see it. Run inside the reservation's
   * transaction.
   */
  async reopenWithSlot(generationId: string, slot: NewSlot): Promise<void> {
    await this.db
      .updateTable('generations')
      .set({ status: 'running', completed_at: null, error: null, updated_at: sql`now()` })
      .where('id', '=', generationId)
      .execute();
    await this.db
      .insertInto('generation_styles')
      .values(slotRow(generationId, slot))
      .onConflict((oc) => oc.columns(['generation_id', 'index']).doNothing())
      .execute();
  }

  /** true when this call moved the slot to running (and a queued generation with it, in the same statement); false when it was settled. */
  async markStyleRunning(generationId: string, index: number): Promise<boolean> {
    const moved = await this.db
      .with('slot', (db) =>
        db
          .updateTable('generation_styles')
          .set({ status: 'running', updated_at: sql`now()` })
          .where('generation_id', '=', generationId)
          .where('index', '=', index)
          .where('status', 'not in', SETTLED)
          .returning('id'),
      )
      .with('generation', (db) =>
        db
          .updateTable('generations')
          .set({ status: 'running', updated_at: sql`now()` })
          .where('id', '=', generationId)
          .where('status', '=', 'queued')
          .where(({ exists, selectFrom }) => exists(selectFrom('slot').select('id')))
          .returning('id'),
      )
      .selectFrom('slot')
      .select('id')
      .execute();
    return moved.length > 0;
  }

  /**
   * true when this call completed the slot; false when it was already settled. The result and its
   * renditions are stored before this records them.
   */
  async completeStyle(
    generationId: string,
    index: number,
    resultKey: string,
    seed: number | null = null,
    files?: OutputFiles,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('generation_styles')
      .set({
        status: 'complete',
        progress: 100,
        result_key: resultKey,
        renditions: true,
        result_bytes: files?.resultBytes ?? null,
        download_key: files?.download?.key ?? null,
        download_bytes: files?.download?.bytes ?? null,
        error: null,
        seed,
        updated_at: sql`now()`,
      })
      .where('generation_id', '=', generationId)
      .where('index', '=', index)
      .where('status', 'not in', SETTLED)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Which attempt of the slot is current: 0 unless a failed style was retried. */
  async slotAttempt(generationId: string, index: number): Promise<number> {
    const row = await this.db
      .selectFrom('generation_styles')
      .select('attempt')
      .where('generation_id', '=', generationId)
      .where('index', '=', index)
      .executeTakeFirst();
    return row?.attempt ?? 0;
  }

  /**
   * Puts a failed slot back in the queue as its next attempt, and its generation open again, in one
   * statement. Null when the slot is not (or no longer) failed: a concurrent retry won, or it never failed.
   * Run inside the retry's reservation transaction.
   */
  async retryFailedStyle(generationId: string, index: number): Promise<RetriedSlot | null> {
    const { rows } = await sql<RetriedSlot>`
      with slot as (
        update generation_styles
        set status = 'queued', progress = 0, error = null, result_key = null, result_bytes = null, download_key = null, download_bytes = null, seed = null, attempt = attempt + 1, updated_at = now()
        where generation_id = ${generationId} and "index" = ${index} and status = 'failed'
        returning "index", name, prompt, attempt
      ),
      reopened as (
        update generations set status = 'running', completed_at = null, error = null, updated_at = now()
        where id = ${generationId} and exists (select 1 from slot)
      )
      select * from slot
    `.execute(this.db);
    return rows[0] ?? null;
  }

  /** Records that a completed output stored before renditions existed now has them. */
  async setStyleRenditions(styleId: string): Promise<void> {
    await this.db.updateTable('generation_styles').set({ renditions: true }).where('id', '=', styleId).execute();
  }

  /** true when this call failed the slot; false when it was already settled. */
  async failStyle(generationId: string, index: number, error: string): Promise<boolean> {
    const result = await this.db
      .updateTable('generation_styles')
      .set({ status: 'failed', error, updated_at: sql`now()` })
      .where('generation_id', '=', generationId)
      .where('index', '=', index)
      .where('status', 'not in', SETTLED)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Fails every unsettled slot (e.g. the recommendation step failed for good); returns their indexes. */
  async failOpenStyles(generationId: string, error: string): Promise<number[]> {
    const rows = await this.db
      .updateTable('generation_styles')
      .set({ status: 'failed', error, updated_at: sql`now()` })
      .where('generation_id', '=', generationId)
      .where('status', 'not in', SETTLED)
      .returning('index')
      .execute();
    return rows.map((r) => r.index);
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

/** The slots as a table `slot("index", name, prompt, background_type)`, for one-statement inserts. */
function slotsTable(slots: NewSlot[]) {
  const column = <K extends keyof NewSlot>(key: K) => slots.map((slot) => slot[key]);
  return sql`unnest(${column('index')}::int[], ${column('name')}::text[], ${column('prompt')}::text[], ${column('backgroundType')}::text[])
    as slot("index", name, prompt, background_type)`;
}

function slotRow(generationId: string, slot: NewSlot) {
  return {
    generation_id: generationId,
    index: slot.index,
    name: slot.name,
    prompt: slot.prompt,
    background_type: slot.backgroundType,
    result_key: null,
    error: null,
  };
}
