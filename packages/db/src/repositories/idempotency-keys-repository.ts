import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { IdempotencyKeyRow } from '../schema.js';

export interface IdempotencyClaim {
  userId: string;
  key: string;
  /** A digest of what the request asked for: the same key with another request is refused. */
  requestHash: string;
}

/**
 * Idempotency-Keys and what their first request started. A key is live for `windowHours`; after
 * that it may start something new. Claim it in the transaction that opens the work, so a claim
 * and its work commit (or roll back) together, and two concurrent requests with one key queue up
 * on the key's row: the second sees the first's.
 */
export class IdempotencyKeysRepository {
  constructor(
    private readonly db: Db,
    private readonly windowHours: number,
  ) {}

  /** The live record of this key, if any. */
  async find(userId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('created_at', '>', this.windowStart())
      .executeTakeFirst();
  }

  /**
   * Records that this key started `target`. Returns undefined when this call claimed the key (or
   * took over an expired one), or the live record that holds it.
   */
  async claim(
    claim: IdempotencyClaim,
    target: { generationId?: string; imageId?: string; batchId?: string },
  ): Promise<IdempotencyKeyRow | undefined> {
    const values = {
      user_id: claim.userId,
      key: claim.key,
      request_hash: claim.requestHash,
      generation_id: target.generationId ?? null,
      image_id: target.imageId ?? null,
      batch_id: target.batchId ?? null,
    };
    const claimed = await this.db
      .insertInto('idempotency_keys')
      .values(values)
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'key'])
          .doUpdateSet({ ...values, created_at: sql`now()` })
          .where('idempotency_keys.created_at', '<=', this.windowStart()),
      )
      .returning('key')
      .executeTakeFirst();
    return claimed ? undefined : this.find(claim.userId, claim.key);
  }

  /** Frees a key whose work could not start (a refused enqueue), so a retry with it starts afresh. */
  async release(userId: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
  }

  async deleteExpired(): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<=', this.windowStart())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private windowStart() {
    return sql<Date>`now() - make_interval(hours => ${this.windowHours})`;
  }
}
