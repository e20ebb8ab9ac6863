import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';
import { Accepted, Queued } from './accepted.js';
import { NullableString, RunStatus, StyleSlotDto } from './generations.js';
import { OUTPUTS_PER_REQUEST_MAX, SMART_STYLES_MAX } from './images.js';
import { PROMPT_MAX_LENGTH, SHOT_BACKGROUNDS } from './templates.js';

/** Most photos one batch holds: one confirmation, one reservation, one zip. */
export const BATCH_ITEMS_MAX = 20;
/** Where a seller short of credits buys add-on credits (the web app's add-on checkout). */
export const BUY_CREDITS_URL = '/checkout/addon';
export const INSUFFICIENT_CREDITS_CODE = 'insufficient_credits';
export const BATCH_TOO_LARGE_CODE = 'batch_too_large';

export function batchTooLargeMessage(count: number): string {
  return `A batch holds up to ${BATCH_ITEMS_MAX} photos; this one has ${count}. Split it into batches of ${BATCH_ITEMS_MAX} or fewer.`;
}

const Count = Type.Integer({ minimum: 1, maximum: OUTPUTS_PER_REQUEST_MAX });

/** The one choice a batch applies to every photo. Each output costs one credit, as it does alone. */
export const BatchChoice = Type.Union([
  Type.Object(
    { mode: Type.Literal('smart'), styleCount: Type.Integer({ minimum: 1, maximum: SMART_STYLES_MAX }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      mode: Type.Literal('template'),
      backgroundType: StringEnum(SHOT_BACKGROUNDS),
      count: Count,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      mode: Type.Literal('prompt'),
      prompt: Type.String({ minLength: 1, maxLength: PROMPT_MAX_LENGTH, pattern: '\\S' }),
      count: Count,
    },
    { additionalProperties: false },
  ),
]);
export type BatchChoice = Static<typeof BatchChoice>;

export const BatchItemRequest = Type.Object(
  {
    /** An upload of the caller's (`POST /api/images/upload`'s `_id`). */
    imageId: Type.String({ minLength: 1, maxLength: 64 }),
    /** Names the product in download names and hints the engine; else the upload's analysed name. */
    productTitle: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type BatchItemRequest = Static<typeof BatchItemRequest>;

export const CreateBatchRequest = Type.Object(
  { items: Type.Array(BatchItemRequest, { minItems: 1, maxItems: BATCH_ITEMS_MAX }), choice: BatchChoice },
  { additionalProperties: false },
);
export type CreateBatchRequest = Static<typeof CreateBatchRequest>;

/** Outputs (so credits) one photo of the batch asks for. */
export function outputsPerItem(choice: BatchChoice): number {
  return choice.mode === 'smart' ? choice.styleCount : choice.count;
}

/** What the whole batch reserves at once. */
export function batchCost(choice: BatchChoice, itemCount: number): number {
  return outputsPerItem(choice) * itemCount;
}

export const CreateBatchResponse = Accepted({
  batchId: Type.String(),
  credits: Type.Integer({ minimum: 0 }),
  status: Queued,
});
export type CreateBatchResponse = Static<typeof CreateBatchResponse>;

/** One output slot of a batch item; its URLs are signed afresh on every read. */
export const BatchOutputDto = Type.Pick(StyleSlotDto, [
  'index',
  'name',
  'status',
  'progress',
  'url',
  'thumbnailUrl',
  'previewUrl',
  'error',
]);
export type BatchOutputDto = Static<typeof BatchOutputDto>;

export const BatchItemDto = Type.Object({
  position: Type.Integer({ minimum: 0 }),
  generationId: Type.String(),
  imageId: NullableString,
  /** The upload's 512 px thumbnail; null once the upload is deleted. */
  thumbnailUrl: NullableString,
  /** What the zip names this product by: the seller's title, else the analysed name, else the uploaded file's name, else 'product'. */
  productTitle: Type.String(),
  status: RunStatus,
  stage: NullableString,
  error: NullableString,
  outputs: Type.Array(BatchOutputDto),
});
export type BatchItemDto = Static<typeof BatchItemDto>;

export const BatchDto = Type.Object({
  id: Type.String(),
  choice: BatchChoice,
  credits: Type.Integer({ minimum: 0 }),
  /** complete or failed once every item settled; running while any item is under way. */
  status: RunStatus,
  createdAt: Type.String({ format: 'date-time' }),
  items: Type.Array(BatchItemDto),
  /**
   * A short-lived link to `GET /api/batches/:id/archive` that needs no bearer token, so the
   * browser downloads the zip straight to disk by navigating to it; null until an output exists.
   */
  archiveUrl: NullableString,
  /**
   * The sizes of the zip (JPEGs, a cutout's WebP) and of the zip of originals (PNGs,
   * `archiveUrl` with `&file=original`); null until an output exists, or when an output stored
   * before sizes were recorded leaves them unknown.
   */
  archiveBytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  originalArchiveBytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type BatchDto = Static<typeof BatchDto>;

export const BatchResponse = Type.Object({ data: BatchDto });
export type BatchResponse = Static<typeof BatchResponse>;

/** The seller's refusal text for a reservation their credits do not cover. */
export function insufficientCreditsMessage(needed: number, available: number): string {
  return `Not enough credits: this needs ${needed} and you have ${available}. Buy a plan or add-on credits to continue.`;
}

export function batchPath(batchId: string): string {
  return `/batches/${encodeURIComponent(batchId)}`;
}
