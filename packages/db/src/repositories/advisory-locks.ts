import { sql } from 'kysely';
import type { Db } from '../database.js';

/** Transaction-scoped Postgres advisory locks: held until the transaction that took them ends. */
export class AdvisoryLocksRepository {
  constructor(private readonly db: Db) {}

  /**
   * Events about one Stripe subscription are applied one at a time: two invoices landing together
   * must not both find no subscription and race to create it. Call inside a transaction.
   */
  async lockStripeSubscription(subscriptionId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`stripe-subscription:${subscriptionId}`}))`.execute(this.db);
  }

  /** A seller's purchases of a plan one at a time: two at once must not both find no subscription and both start one. */
  async lockUserSubscription(userId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`user-subscription:${userId}`}))`.execute(this.db);
  }
}
