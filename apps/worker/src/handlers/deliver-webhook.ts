import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@prodshot/contracts';
import { resolveWebhookTarget, webhookRetryDelay, type WebhookTarget } from '@prodshot/queue';
import type { WorkerDeps } from '../deps.js';
import { isLastAttemptRunning } from '../dispatch.js';
import type { JobHandler } from './index.js';

/** A receiver has this long to answer, body included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
const NO_ANSWER = `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
/**
 * After a delivery went unanswered, the endpoint's other deliveries are not sent for this long:
 * each would hold a webhook lane for the whole timeout, and the lanes are shared by every seller.
 */
export const UNANSWERED_HOLD_SECONDS = 60;
/** What is read of a receiver's answer at most: its status is all that counts, the rest is drained and dropped. */
export const WEBHOOK_RESPONSE_CAP_BYTES = 64 * 1024;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, signed with the endpoint's secret. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** An attempt that did not end in a 2xx; `statusCode` when the receiver answered. */
class DeliveryError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null = null,
  ) {
    super(message);
  }
}

/** Resolves to the address checked, never to what the name resolves to now (DNS rebinding). */
function pinnedLookup(target: WebhookTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/**
 * POSTs the body to the checked address, with the URL's host name as Host and TLS server name. No
 * redirect is followed (Node's client follows none); the answer is read up to the cap.
 */
export function postPinned(target: WebhookTarget, body: string, headers: Record<string, string>): Promise<number> {
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        agent: false,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= WEBHOOK_RESPONSE_CAP_BYTES) response.destroy();
        });
        response.on('close', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', (error) =>
      reject(
        error.name === 'AbortError' || error.name === 'TimeoutError'
          ? new DeliveryError(NO_ANSWER)
          : new DeliveryError(`Could not connect: ${(error as NodeJS.ErrnoException).code ?? error.message}`),
      ),
    );
    request.end(body);
  });
}

/**
 * A receiver that left a delivery unanswered within UNANSWERED_HOLD_SECONDS gets no new connection:
 * the attempt fails at once and is retried on the usual schedule, so a receiver that hangs delays
 * only its own deliveries.
 */
async function holdBackWhileUnanswered(deps: WorkerDeps, endpointId: string): Promise<void> {
  if (await deps.repos.webhooks.leftUnanswered(endpointId, UNANSWERED_HOLD_SECONDS, NO_ANSWER)) {
    throw new DeliveryError(
      `Not sent: this receiver left a delivery unanswered in the last ${UNANSWERED_HOLD_SECONDS} s; trying again later`,
    );
  }
}

function refusal(statusCode: number): DeliveryError {
  if (statusCode >= 300 && statusCode < 400)
    return new DeliveryError(`The receiver answered ${statusCode}; redirects are not followed`, statusCode);
  return new DeliveryError(`The receiver answered ${statusCode}`, statusCode);
}

/**
 * Sends one webhook delivery: its stored body, signed afresh, to the endpoint's checked address.
 * A 2xx delivers it; anything else throws, and BullMQ tries again with the webhook backoff until the
 * 24 h are spent. The row records every attempt. Runs on the webhooks queue only, so a receiver that
 * answers slowly or never holds a webhook lane, never a render or interactive one; it moves no credit.
 */
export const deliverWebhook: JobHandler<'deliver-webhook'> = {
  async run(job, deps) {
    const delivery = await deps.repos.webhooks.findDeliveryToSend(job.data.deliveryId);
    if (!delivery || delivery.endpointDeleted || delivery.status === 'delivered') return { status: 'skipped' };
    const body = JSON.stringify(delivery.payload);
    let statusCode: number | null = null;
    try {
      await holdBackWhileUnanswered(deps, delivery.endpoint_id);
      const target = await resolveWebhookTarget(delivery.url, {
        loopbackReceivers: deps.config.webhooks.loopbackReceivers,
      });
      statusCode = await postPinned(target, body, {
        'content-type': 'application/json',
        'user-agent': 'Prodshot-Webhooks/1',
        [WEBHOOK_EVENT_ID_HEADER.toLowerCase()]: delivery.event_id,
        [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: webhookSignature(
          delivery.secret,
          Math.floor(Date.now() / 1000),
          body,
        ),
      });
      if (statusCode < 200 || statusCode >= 300) throw refusal(statusCode);
    } catch (error) {
      const backoff = job.opts.backoff;
      const nextAttemptAt = isLastAttemptRunning(job)
        ? null
        : new Date(
            Date.now() +
              webhookRetryDelay(job.attemptsMade + 1, typeof backoff === 'object' ? backoff.delay : undefined),
          );
      await deps.repos.webhooks.recordAttempt(delivery.id, {
        delivered: false,
        statusCode,
        error: error instanceof Error ? error.message : String(error),
        nextAttemptAt,
      });
      throw error;
    }
    await deps.repos.webhooks.recordAttempt(delivery.id, { delivered: true, statusCode });
    return { status: 'delivered', statusCode };
  },

  /** Failed outside an attempt (its worker died too often): no attempt is left. */
  async onFinalFailure(payload, message, deps) {
    await deps.repos.webhooks.markFailed(payload.deliveryId, message);
  },
};
