import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { GenerationStyleRow, RunStatus } from '../schema.js';

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

/** The states a slot or a generation does not leave. */
export const SETTLED: RunStatus[] = ['complete', 'failed'];

/** A stored output's size and its download copy's: lists and zips name them without asking storage. */
export interface OutputFiles {
  resultBytes: number;
  /** null when the output itself is what Download saves (it is a JPEG already). */
  download: { key: string; bytes: number } | null;
}

/**
 * A generation's output slots. Every state change is a conditional update, so a job that runs
 * twice (a retry after a crash) cannot move a settled slot.
 */
export class GenerationSlotsRepository {
  constructor(protected readonly db: Db) {}

  async styles(generationId: string): Promise<GenerationStyleRow[]> {
    return this.db
      .selectFrom('generation_styles')
      .selectAll()
      .where('generation_id', '=', generationId)
      .orderBy('index')
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
}

/** The slots as a table `slot("index", name, prompt, background_type)`, for one-statement inserts. */
export function slotsTable(slots: NewSlot[]) {
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
