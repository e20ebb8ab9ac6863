import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';
import type { BatchDto } from './batches.js';
import type { GenerationDto } from './generations.js';

/** What an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['generation.completed', 'generation.failed', 'batch.completed', 'credits.low'] as const;
export const WebhookEventType = StringEnum(WEBHOOK_EVENTS);
export type WebhookEventType = Static<typeof WebhookEventType>;

export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** Shown once, at creation: what a receiver verifies `Prodshot-Signature` with. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SIGNATURE_HEADER = 'Prodshot-Signature';
export const WEBHOOK_EVENT_ID_HEADER = 'Prodshot-Event-Id';
/** Deliveries a list shows per endpoint: the latest ones. */
export const WEBHOOK_DELIVERIES_LISTED = 50;

/** `POST /api/webhooks`. `creditsLowThreshold` is required when `credits.low` is among the events. */
export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH }),
    events: Type.Array(WebhookEventType, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
    creditsLowThreshold: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

/** An endpoint as lists show it: never its secret. */
export const WebhookEndpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(WebhookEventType),
  creditsLowThreshold: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** The answer to `POST /api/webhooks`: the only time `secret` is ever sent. */
export const CreatedWebhookEndpoint = Type.Object({ ...WebhookEndpoint.properties, secret: Type.String() });
export type CreatedWebhookEndpoint = Static<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointsResponse = Type.Object({ data: Type.Array(WebhookEndpoint) });
export type WebhookEndpointsResponse = Static<typeof WebhookEndpointsResponse>;

export const DeletedWebhookEndpointResponse = Type.Object({
  data: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }),
});
export type DeletedWebhookEndpointResponse = Static<typeof DeletedWebhookEndpointResponse>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WebhookDeliveryStatus = StringEnum(WEBHOOK_DELIVERY_STATUSES);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatus>;

/** One event to one endpoint, and how its sending went. */
export const WebhookDelivery = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  eventType: WebhookEventType,
  status: WebhookDeliveryStatus,
  attempts: Type.Integer({ minimum: 0 }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** `GET /api/webhooks/:id/deliveries`: the latest deliveries, newest first. */
export const WebhookDeliveriesResponse = Type.Object({ data: Type.Array(WebhookDelivery) });
export type WebhookDeliveriesResponse = Static<typeof WebhookDeliveriesResponse>;

/** `POST /api/webhooks/:id/deliveries/:deliveryId/retry`: the delivery, back in line to be sent. */
export const WebhookDeliveryResponse = Type.Object({ data: WebhookDelivery });
export type WebhookDeliveryResponse = Static<typeof WebhookDeliveryResponse>;

export const WebhookParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type WebhookParams = Static<typeof WebhookParams>;
export const WebhookDeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type WebhookDeliveryParams = Static<typeof WebhookDeliveryParams>;

/** `credits.low`: the seller's balance (plan and add-on credits together) and the endpoint's threshold it fell below. */
export const CreditsLowData = Type.Object({
  balance: Type.Integer({ minimum: 0 }),
  threshold: Type.Integer({ minimum: 0 }),
});
export type CreditsLowData = Static<typeof CreditsLowData>;

/** What each event's `data` holds. */
export interface WebhookEventData {
  'generation.completed': GenerationDto;
  'generation.failed': GenerationDto;
  'batch.completed': BatchDto;
  'credits.low': CreditsLowData;
}

/** The JSON body of every delivery; `id` is also sent as `Prodshot-Event-Id`, the same on every attempt. */
export type WebhookEvent = {
  [T in WebhookEventType]: { id: string; type: T; createdAt: string; data: WebhookEventData[T] };
}[WebhookEventType];

/** Sends one delivery; the job id is the delivery's id, so an event is never being sent twice at once. */
export interface DeliverWebhookJob {
  deliveryId: string;
}

export const WEBHOOK_URL_MESSAGES = {
  invalid: 'Enter a full URL, such as https://example.com/prodshot-webhook.',
  https: 'Webhook URLs must start with https://.',
  credentials: 'Webhook URLs cannot hold a user name or password.',
  unresolved: 'This host name could not be resolved; check the URL.',
  private:
    'Webhook URLs must point to a public address: private, loopback, link-local and metadata addresses are refused.',
  thresholdRequired: 'Set a credits threshold to receive credits.low.',
} as const;
