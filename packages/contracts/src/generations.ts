import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';
import { ShotFiles } from './downloads.js';
import { OutputRef } from './iterate.js';
import { ProductInfo } from './products.js';
import { Progress } from './progress.js';

/** Where a generation, a slot, a batch or a batch item stands. */
export const RunStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('complete'),
  Type.Literal('failed'),
]);
export type RunStatus = Static<typeof RunStatus>;
/** What a seller reads when a generation failed for a reason they cannot act on (spec's wording); stored on failed rows too. */
export const GENERATION_FAILED_MESSAGE = 'Failed to generate product shots. Please try again.';
/** 'auto' is a manual shot whose scene the engine picked from its analysis of the product. */
export const GenerationKind = Type.Union([
  Type.Literal('manual'),
  Type.Literal('auto'),
  Type.Literal('smart'),
  Type.Literal('remove-background'),
  Type.Literal('generate-background'),
]);
export type GenerationKind = Static<typeof GenerationKind>;
/** Smart generation stages, in order (docs/product-spec.md §4). */
export const SMART_STAGES = ['analysing', 'designing recommendations', 'generating'] as const;
export type SmartStage = (typeof SMART_STAGES)[number];
const SmartStageSchema = StringEnum(SMART_STAGES);
/** A text field that is null until it applies. */
export const NullableString = Type.Union([Type.String(), Type.Null()]);

export const StyleSlotDto = Type.Object({
  index: Type.Integer({ minimum: 0 }),
  name: Type.String(),
  prompt: NullableString,
  status: RunStatus,
  progress: Progress,
  url: NullableString,
  /** Null exactly when `url` is. */
  thumbnailUrl: NullableString,
  previewUrl: NullableString,
  error: NullableString,
  /** The template handle the slot was asked for ('custom', 'auto' or a style's name otherwise). */
  backgroundType: Type.Optional(NullableString),
  /** The seed the output's scene was rendered with; null until rendered. */
  seed: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  /** What Download saves and the original, with their sizes; null until complete (and absent from live events). */
  files: Type.Optional(Type.Union([ShotFiles, Type.Null()])),
});
export type StyleSlotDto = Static<typeof StyleSlotDto>;

/** `GET /api/generations/:id`: where a generation stands, whatever happened to sockets or workers. */
export const GenerationDto = Type.Object({
  id: Type.String(),
  kind: GenerationKind,
  status: RunStatus,
  stage: Type.Union([SmartStageSchema, Type.Null()]),
  imageId: NullableString,
  productInfo: Type.Union([ProductInfo, Type.Null()]),
  error: NullableString,
  unsupportedProduct: Type.Boolean(),
  styles: Type.Array(StyleSlotDto),
  createdAt: Type.String({ format: 'date-time' }),
  /** The output a More like this was made from; null for every other generation. */
  origin: Type.Optional(Type.Union([OutputRef, Type.Null()])),
});
export type GenerationDto = Static<typeof GenerationDto>;

export const GenerationResponse = Type.Object({ data: GenerationDto });
export type GenerationResponse = Static<typeof GenerationResponse>;
