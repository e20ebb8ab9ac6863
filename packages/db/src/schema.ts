// Over 250 lines: kysely's Database type: one interface per table, the whole schema in one place.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  ApiKeyScope,
  CoachWarning,
  GenerationKind,
  PlanId,
  Progress,
  RunStatus,
  SubjectFinding,
  UploadOutline,
  WebhookDeliveryStatus,
  WebhookEvent,
  WebhookEventType,
} from '@prodshot/contracts';

/** Declared once, in contracts: the columns hold exactly what the API answers. */
export type { GenerationKind, PlanId, RunStatus };

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T, string | T>;

export type LedgerKind =
  | 'reserve'
  | 'settle'
  | 'refund'
  | 'grant_subscription'
  | 'grant_addon'
  | 'reset_subscription'
  | 'expire_subscription'
  | 'revoke'
  | 'restore'
  | 'claw';
/** Which balance a purchase filled: a plan period's allowance or an add-on pack. */
export type CreditBucket = 'subscription' | 'addon';

export interface UsersTable {
  id: Generated<string>;
  clerk_id: string;
  email: string;
  name: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ImagesTable {
  id: Generated<string>;
  user_id: string;
  file_id: string;
  name: string;
  storage_key: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  created_at: Generated<Date>;
  /** What the cutout model found in the upload; null until the worker has looked. */
  subject: Json<SubjectFinding | null> | null;
  /** Whether its thumbnail and preview are stored beside it (storage renditionKey). */
  renditions: Generated<boolean>;
  /** The seller's product title; null until they give one. */
  product_title: Generated<string | null>;
  /** The photo coach's warnings: the pixel checks from the upload, the product checks from the worker. */
  coach: ColumnType<CoachWarning[], string | undefined, string>;
  /** The outline the seller checks before paying; null until the worker has made it. */
  outline: ColumnType<UploadOutline | null, string | null | undefined, string | null>;
}

export interface GenerationsTable {
  id: Generated<string>;
  user_id: string;
  image_id: string | null;
  kind: GenerationKind;
  status: Generated<RunStatus>;
  stage: string | null;
  request: Json<Record<string, unknown>>;
  product_info: Json<Record<string, unknown> | null> | null;
  error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  completed_at: NullableTimestamp;
  /** The batch that owns this generation, and its place in it; null for a generation started alone. */
  batch_id: Generated<string | null>;
  batch_position: Generated<number | null>;
}

export interface BatchesTable {
  id: Generated<string>;
  user_id: string;
  choice: Json<Record<string, unknown>>;
  credits: number;
  created_at: Generated<Date>;
}

export interface GenerationStylesTable {
  id: Generated<string>;
  generation_id: string;
  index: number;
  name: string;
  prompt: string | null;
  background_type: string | null;
  status: Generated<RunStatus>;
  /** 0 until complete, then 100 (a check constraint holds it to 0..100); live progress goes out as events only. */
  progress: Generated<Progress>;
  result_key: string | null;
  /** Whether the result's thumbnail and preview are stored beside it (storage renditionKey). */
  renditions: Generated<boolean>;
  /** The result's size; null for outputs stored before sizes were recorded. */
  result_bytes: number | null;
  /** What Download saves by default, stored beside the result (storage downloadCopyKey), and its size; null: the result itself. */
  download_key: string | null;
  download_bytes: number | null;
  error: string | null;
  /** The seed the output's scene was rendered with; null until it is rendered. */
  seed: number | null;
  /** 0 for the first render; each retry of a failed style adds one (its ledger keys carry it). */
  attempt: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CreditBalancesTable {
  user_id: string;
  subscription_credits: Generated<number>;
  addon_credits: Generated<number>;
  /** Credits stored shots used after a reversal took what paid for them: the next grant repays them first. */
  debt_credits: Generated<number>;
  updated_at: Generated<Date>;
}

export interface CreditLedgerTable {
  id: Generated<string>;
  user_id: string;
  kind: LedgerKind;
  subscription_delta: Generated<number>;
  addon_delta: Generated<number>;
  debt_delta: Generated<number>;
  idempotency_key: string;
  generation_id: string | null;
  reason: string | null;
  /** For revoke and restore rows: the grant key of the purchase whose credits moved. */
  purchase_key: string | null;
  created_at: Generated<Date>;
}

/** A paid grant that a refund or a dispute can take back: keyed by the grant's ledger idempotency key. */
export interface CreditPurchasesTable {
  grant_key: string;
  user_id: string;
  bucket: CreditBucket;
  credits: number;
  created_at: Generated<Date>;
}

/** Which grant a payment (a PaymentIntent, charge or invoice id) paid for. */
export interface PurchasePaymentsTable {
  payment_ref: string;
  grant_key: string;
  created_at: Generated<Date>;
}

export interface SubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  plan: PlanId;
  status: string;
  provider: 'stripe' | 'local';
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  pending_plan: PlanId | null;
  cancel_at_period_end: Generated<boolean>;
  current_period_start: NullableTimestamp;
  current_period_end: NullableTimestamp;
  /** `created` of the last provider event applied to this subscription: an older one arriving late changes nothing. */
  provider_event_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A second provider subscription of a seller, cancelled at once (and its payment refunded) to keep one. */
export interface CancelledSecondSubscriptionsTable {
  provider_subscription_id: string;
  user_id: string;
  /** The subscription the seller keeps. */
  kept_subscription_id: string;
  plan: PlanId;
  refunded: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface ProcessedWebhookEventsTable {
  event_id: string;
  provider: string;
  type: string;
  processed_at: Generated<Date>;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  generation_id: string | null;
  image_id: string | null;
  batch_id: Generated<string | null>;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The key's first characters, what lists show of it. */
  prefix: string;
  /** sha256 hex of the whole key; the key itself is never stored. */
  hash: string;
  created_at: Generated<Date>;
  last_used_at: NullableTimestamp;
  last_used_address: string | null;
  revoked_at: NullableTimestamp;
}

export interface WebhookEndpointsTable {
  id: Generated<string>;
  user_id: string;
  url: string;
  events: WebhookEventType[];
  /** Kept as it is: every delivery is signed with it. */
  secret: string;
  credits_low_threshold: number | null;
  /** When credits.low last fired; cleared once the balance is back at the threshold, which re-arms it. */
  credits_low_sent_at: NullableTimestamp;
  created_at: Generated<Date>;
  deleted_at: NullableTimestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  /** The body sent, the same on every attempt. */
  payload: Json<WebhookEvent>;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  last_status_code: number | null;
  last_attempt_at: NullableTimestamp;
  next_attempt_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  images: ImagesTable;
  generations: GenerationsTable;
  batches: BatchesTable;
  generation_styles: GenerationStylesTable;
  credit_balances: CreditBalancesTable;
  credit_ledger: CreditLedgerTable;
  subscriptions: SubscriptionsTable;
  processed_webhook_events: ProcessedWebhookEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  credit_purchases: CreditPurchasesTable;
  purchase_payments: PurchasePaymentsTable;
  cancelled_second_subscriptions: CancelledSecondSubscriptionsTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ImageRow = Selectable<ImagesTable>;
export type NewImage = Insertable<ImagesTable>;
export type GenerationRow = Selectable<GenerationsTable>;
export type BatchRow = Selectable<BatchesTable>;
export type GenerationStyleRow = Selectable<GenerationStylesTable>;
export type CreditBalanceRow = Selectable<CreditBalancesTable>;
export type CreditLedgerRow = Selectable<CreditLedgerTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type CancelledSecondSubscriptionRow = Selectable<CancelledSecondSubscriptionsTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type CreditPurchaseRow = Selectable<CreditPurchasesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
