import type { Db } from '../database.js';

/** The `processed_webhook_events` table: the ids of Stripe's events already applied. */
export class ProcessedWebhookEventsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims an event id; false when it was already processed. Called inside the transaction that
   * applies the event, so a concurrent delivery of the same id waits on the primary key and then
   * finds it taken, and a failed apply releases the claim for Stripe's retry.
   */
  async claim(provider: string, eventId: string, type: string): Promise<boolean> {
    const row = await this.db
      .insertInto('processed_webhook_events')
      .values({ event_id: eventId, provider, type })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
