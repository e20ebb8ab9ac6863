import { sql } from 'kysely';
import type { ApiKeyScope } from '@prodshot/contracts';
import type { Db } from '../database.js';
import type { ApiKeyRow } from '../schema.js';

export interface NewApiKey {
  userId: string;
  name: string;
  scopes: ApiKeyScope[];
  prefix: string;
  hash: string;
}

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  async create(key: NewApiKey): Promise<ApiKeyRow> {
    return this.db
      .insertInto('api_keys')
      .values({ user_id: key.userId, name: key.name, scopes: key.scopes, prefix: key.prefix, hash: key.hash })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The user's keys still in force, newest first. */
  async listActive(userId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The unrevoked key with this hash; read on every request a key makes, so a revocation holds at once on every replica. */
  async findActiveByHash(hash: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  /** Revokes one of the user's own keys; false when it has no such key in force. */
  async revoke(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Records a use and the address it came from, unless one was recorded in the last
   * `throttleSeconds`: replicas racing on a busy key write once between them.
   */
  async recordUse(id: string, address: string, throttleSeconds: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ last_used_at: sql<Date>`now()`, last_used_address: address })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<=', sql<Date>`now() - make_interval(secs => ${throttleSeconds})`),
        ]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
