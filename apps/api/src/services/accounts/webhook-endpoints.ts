import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_DELIVERIES_LISTED,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_URL_MESSAGES,
  type CreateWebhookBody,
  type CreatedWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@prodshot/contracts';
import { isUuid, type WebhookDeliveryRow, type WebhookEndpointRow, type WebhooksRepository } from '@prodshot/db';
import { resolveWebhookTarget, WebhookUrlError, type JobProducer, type WebhookTargetPolicy } from '@prodshot/queue';
import { HttpError } from '../http-error.js';

function endpointDto(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    creditsLowThreshold: row.credits_low_threshold,
    createdAt: row.created_at.toISOString(),
  };
}

function deliveryDto(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    lastStatusCode: row.last_status_code,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

function endpointNotFound(): HttpError {
  return new HttpError(404, 'Webhook endpoint not found', 'not_found');
}

/**
 * A seller's webhook endpoints: registered with a URL checked (https, public addresses; http and
 * loopback too on a loopback deployment) and resolved now, and again at every delivery. The secret
 * is answered once, at creation. "Send again" puts a delivery back on the webhook queue.
 */
export class WebhookEndpointService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly producer: Pick<JobProducer, 'enqueueWebhookDeliveries' | 'queue'>,
    private readonly policy: WebhookTargetPolicy,
  ) {}

  async create(userId: string, body: CreateWebhookBody): Promise<CreatedWebhookEndpoint> {
    const wantsCreditsLow = body.events.includes('credits.low');
    if (wantsCreditsLow && body.creditsLowThreshold === undefined)
      throw new HttpError(400, WEBHOOK_URL_MESSAGES.thresholdRequired, 'threshold_required');
    const url = await this.checkedUrl(body.url.trim());
    const secret = WEBHOOK_SECRET_PREFIX + randomBytes(24).toString('base64url');
    const row = await this.webhooks.createEndpoint({
      userId,
      url,
      events: body.events,
      secret,
      creditsLowThreshold: wantsCreditsLow ? body.creditsLowThreshold! : null,
    });
    return { ...endpointDto(row), secret };
  }

  async list(userId: string): Promise<WebhookEndpoint[]> {
    return (await this.webhooks.listEndpoints(userId)).map(endpointDto);
  }

  /** 404 for an id the user has no endpoint under, theirs or not. */
  async delete(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.webhooks.deleteEndpoint(userId, id))) throw endpointNotFound();
  }

  async deliveries(userId: string, endpointId: string): Promise<WebhookDelivery[]> {
    await this.owned(userId, endpointId);
    return (await this.webhooks.listDeliveries(userId, endpointId, WEBHOOK_DELIVERIES_LISTED)).map(deliveryDto);
  }

  /**
   * "Send again": a delivery waiting for its next attempt is sent now; one being sent is left to
   * it (an event is never sent twice at once); a finished one (delivered or failed) is sent anew,
   * with the same event id and body, and a fresh 24 h of retries.
   */
  async sendAgain(userId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.owned(userId, endpointId);
    const delivery = isUuid(deliveryId)
      ? await this.webhooks.findOwnedDelivery(userId, endpointId, deliveryId)
      : undefined;
    if (!delivery) throw new HttpError(404, 'Delivery not found', 'not_found');
    // Pending before its job exists: a job that finds its delivery delivered sends nothing.
    const requeued = await this.webhooks.requeue(deliveryId);
    const job = await this.producer.queue('webhooks').getJob(deliveryId);
    const state = await job?.getState();
    if (state === 'delayed') await job!.promote();
    else if (state !== 'active' && state !== 'waiting' && state !== 'prioritized') {
      await job?.remove();
      await this.producer.enqueueWebhookDeliveries([deliveryId]);
    }
    return deliveryDto(requeued);
  }

  private async owned(userId: string, endpointId: string): Promise<WebhookEndpointRow> {
    const endpoint = isUuid(endpointId) ? await this.webhooks.findEndpoint(userId, endpointId) : undefined;
    if (!endpoint) throw endpointNotFound();
    return endpoint;
  }

  private async checkedUrl(raw: string): Promise<string> {
    try {
      return (await resolveWebhookTarget(raw, this.policy)).url.href;
    } catch (error) {
      if (error instanceof WebhookUrlError) throw new HttpError(400, error.message, `webhook_url_${error.reason}`);
      throw error;
    }
  }
}
