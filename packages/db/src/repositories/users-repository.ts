import type { Db } from '../database.js';
import type { UserRow } from '../schema.js';

export interface UserIdentity {
  clerkId: string;
  /** From the token when its template carries them; registration fills them in otherwise. */
  email?: string | undefined;
  name?: string | undefined;
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findByClerkId(clerkId: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('clerk_id', '=', clerkId).executeTakeFirst();
  }

  async findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The row of an authenticated Clerk user, created on first sight. Concurrent first requests of
   * one user race on the unique clerk_id: the loser's insert does nothing and it reads the winner's row.
   */
  async ensure(identity: UserIdentity): Promise<UserRow> {
    const existing = await this.findByClerkId(identity.clerkId);
    if (existing) return existing;
    await this.db
      .insertInto('users')
      .values({ clerk_id: identity.clerkId, email: identity.email ?? '', name: identity.name ?? '' })
      .onConflict((oc) => oc.column('clerk_id').doNothing())
      .execute();
    const row = await this.findByClerkId(identity.clerkId);
    if (!row) throw new Error(`user ${identity.clerkId} vanished right after it was created`);
    return row;
  }

  /** Registration and the dev sign-in: the provider's email and name become the user's. */
  async upsertProfile(identity: { clerkId: string; email: string; name: string }): Promise<UserRow> {
    return this.db
      .insertInto('users')
      .values({ clerk_id: identity.clerkId, email: identity.email, name: identity.name })
      .onConflict((oc) =>
        oc.column('clerk_id').doUpdateSet({ email: identity.email, name: identity.name, updated_at: new Date() }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateName(id: string, name: string): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ name, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }
}
