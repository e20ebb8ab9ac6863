import { LRUCache } from 'lru-cache';
import type { UserProfile } from '@prodshot/contracts';
import type { UserRow, UsersRepository } from '@prodshot/db';
import type { AuthUser } from '../auth-user.js';

/** What a session token's claims may say of its user, used only when the row is first created. */
export interface SessionClaims {
  email?: string | undefined;
  name?: string | undefined;
}

/**
 * The users behind session tokens: their rows, created on first sight, and the profile they edit.
 * A Clerk id always maps to the same row, so a signed-in user costs one database round trip a
 * minute rather than one per request (name and email in `signedIn` may lag a profile edit by that
 * long; the profile reads the row). Per app, as each app has its own database.
 */
export class AccountService {
  private readonly knownUsers = new LRUCache<string, AuthUser>({ max: 10_000, ttl: 60_000 });

  constructor(private readonly users: UsersRepository) {}

  /** The request's user, from the cache or the row (created on first sight). */
  async signedIn(clerkId: string, claims: SessionClaims): Promise<AuthUser> {
    const known = this.knownUsers.get(clerkId);
    if (known) return known;
    const row = await this.users.ensure({ clerkId, email: claims.email, name: claims.name });
    const user = { id: row.id, clerkId: row.clerk_id, email: row.email, name: row.name };
    this.knownUsers.set(clerkId, user);
    return user;
  }

  /** The user id of a verified token, uncached: a socket connects once and stays. */
  async userIdOf(clerkId: string): Promise<string> {
    return (await this.users.ensure({ clerkId })).id;
  }

  /** Writes the profile the sign-up (or the embedded sign-in) states. */
  async register(identity: { clerkId: string; email: string; name: string }): Promise<UserRow> {
    const row = await this.users.upsertProfile(identity);
    this.knownUsers.delete(identity.clerkId);
    return row;
  }

  /** Whether a verified token's user finished registering (has an email). */
  async isRegistered(clerkId: string): Promise<boolean> {
    const row = await this.users.findByClerkId(clerkId);
    return Boolean(row?.email);
  }

  async profile(userId: string): Promise<UserProfile | undefined> {
    const row = await this.users.findById(userId);
    return row && profileOf(row);
  }

  async rename(user: AuthUser, name: string): Promise<UserProfile | undefined> {
    const row = await this.users.updateName(user.id, name);
    this.knownUsers.delete(user.clerkId);
    return row && profileOf(row);
  }
}

function profileOf(row: UserRow): UserProfile {
  return { id: row.id, name: row.name, email: row.email };
}
