import { sql } from 'kysely';
import type { WebhookEvent, WebhookEventType } from '@prodshot/contracts';
import type { Db } from '../database.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../schema.js';

export interface NewWebhookEndpoint {
  userId: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  creditsLowThreshold: number | null;
}

/** A delivery with what sending it needs from its endpoint. */
export interface DeliveryToSend extends WebhookDeliveryRow {
  url: string;
  secret: string;
  endpointDeleted: boolean;
}

/** How one attempt went: `delivered`, or the error and the time of the next attempt (null: none is left). */
export type DeliveryAttempt =
  | { delivered: true; statusCode: number }
  | { delivered: false; statusCode: number | null; error: string; nextAttemptAt: Date | null };

export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  async createEndpoint(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
    return this.db
      .insertInto('webhook_endpoints')
      .values({
        user_id: endpoint.userId,
        url: endpoint.url,
        events: endpoint.events,
        secret: endpoint.secret,
        credits_low_threshold: endpoint.creditsLowThreshold,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The user's endpoints not deleted, newest first. */
  async listEndpoints(userId: string): Promise<WebhookEndpointRow[]> {
    return this.activeEndpoints(userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  async findEndpoint(userId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return this.activeEndpoints(userId).where('id', '=', id).executeTakeFirst();
  }

  /** Deletes one of the user's own endpoints (its deliveries stay on record, none is sent again); false when it has no such endpoint. */
  async deleteEndpoint(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The user's endpoints that subscribed to this event type. */
  async subscribers(userId: string, type: WebhookEventType): Promise<WebhookEndpointRow[]> {
    return this.activeEndpoints(userId)
      .where(sql<boolean>`${type} = any(events)`)
      .execute();
  }

  /**
   * credits.low's crossings: endpoints whose threshold the balance is now below and that have not
   * fired since it last was at or above it are marked fired and returned; those the balance is back
   * at or above are re-armed. Concurrent calls return each endpoint to one of them only.
   */
  async creditsLowCrossed(userId: string, balance: number): Promise<WebhookEndpointRow[]> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ credits_low_sent_at: null })
      .where('user_id', '=', userId)
      .where('credits_low_sent_at', 'is not', null)
      .where('credits_low_threshold', '<=', balance)
      .execute();
    return this.db
      .updateTable('webhook_endpoints')
      .set({ credits_low_sent_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .where('credits_low_sent_at', 'is', null)
      .where('credits_low_threshold', '>', balance)
      .where(sql<boolean>`'credits.low' = any(events)`)
      .returningAll()
      .execute();
  }

  /** Records the event for each endpoint, once per (endpoint, event id): returns the deliveries this call created. */
  async recordEvent(endpointIds: string[], event: WebhookEvent): Promise<WebhookDeliveryRow[]> {
    if (endpointIds.length === 0) return [];
    return this.db
      .insertInto('webhook_deliveries')
      .values(
        endpointIds.map((endpointId) => ({
          endpoint_id: endpointId,
          event_id: event.id,
          event_type: event.type,
          payload: JSON.stringify(event),
          next_attempt_at: sql<Date>`now()`,
        })),
      )
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
      .returningAll()
      .execute();
  }

  async findDeliveryToSend(id: string): Promise<DeliveryToSend | undefined> {
    const row = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .select(['e.url', 'e.secret', 'e.deleted_at'])
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { deleted_at: deletedAt, ...delivery } = row;
    return { ...delivery, endpointDeleted: deletedAt !== null };
  }

  /** The endpoint's latest deliveries, newest first; empty for an endpoint the user does not own. */
  async listDeliveries(userId: string, endpointId: string, limit: number): Promise<WebhookDeliveryRow[]> {
    return this.ownedDeliveries(userId, endpointId)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
  }

  async findOwnedDelivery(userId: string, endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    return this.ownedDeliveries(userId, endpointId).where('d.id', '=', id).executeTakeFirst();
  }

  /** Counts an attempt and how it went; a delivery without a next attempt has failed for good. */
  async recordAttempt(id: string, attempt: DeliveryAttempt): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_attempt_at: sql<Date>`now()`,
        last_status_code: attempt.statusCode,
        ...(attempt.delivered
          ? { status: 'delivered' as const, last_error: null, next_attempt_at: null }
          : {
              status: attempt.nextAttemptAt ? ('pending' as const) : ('failed' as const),
              last_error: attempt.error,
              next_attempt_at: attempt.nextAttemptAt,
            }),
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Whether an attempt at this endpoint ended in `noAnswerError` within the last `seconds`, with nothing delivered to it since. */
  async leftUnanswered(endpointId: string, seconds: number, noAnswerError: string): Promise<boolean> {
    const unanswered = await this.db
      .selectFrom('webhook_deliveries as u')
      .select('u.id')
      .where('u.endpoint_id', '=', endpointId)
      .where('u.last_error', '=', noAnswerError)
      .where('u.last_attempt_at', '>', sql<Date>`now() - make_interval(secs => ${seconds})`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as d')
              .select('d.id')
              .where('d.endpoint_id', '=', endpointId)
              .where('d.status', '=', 'delivered')
              .whereRef('d.last_attempt_at', '>', 'u.last_attempt_at'),
          ),
        ),
      )
      .limit(1)
      .executeTakeFirst();
    return unanswered !== undefined;
  }

  /** Fails a delivery for good without another attempt (its job failed outside an attempt, e.g. stalled). */
  async markFailed(id: string, error: string): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', next_attempt_at: null, last_error: sql<string>`coalesce(last_error, ${error})` })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** "Send again": back to pending, due now. */
  async requeue(id: string): Promise<WebhookDeliveryRow> {
    return this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  private activeEndpoints(userId: string) {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null);
  }

  private ownedDeliveries(userId: string, endpointId: string) {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .where('d.endpoint_id', '=', endpointId)
      .where('e.user_id', '=', userId)
      .where('e.deleted_at', 'is', null);
  }
}
