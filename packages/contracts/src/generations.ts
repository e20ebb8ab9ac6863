import type { ProductInfo } from './images.js';
import type { OutputRef } from './iterate.js';
import type { Progress } from './progress.js';

export type RunStatus = 'queued' | 'running' | 'complete' | 'failed';
/** What a seller reads when a generation failed for a reason they cannot act on (spec's wording); stored on failed rows too. */
export const GENERATION_FAILED_MESSAGE = 'Failed to generate product shots. Please try again.';
/** 'auto' is a manual shot whose scene the engine picked from its analysis of the product. */
export type GenerationKind = 'manual' | 'auto' | 'smart' | 'remove-background' | 'generate-background';
/** Smart generation stages, in order (spec §4). */
export const SMART_STAGES = ['analysing', 'designing recommendations', 'generating'] as const;
export type SmartStage = (typeof SMART_STAGES)[number];

export interface StyleSlotDto {
  index: number;
  name: string;
  prompt: string | null;
  status: RunStatus;
  progress: Progress;
  url: string | null;
  /** Null exactly when `url` is. */
  thumbnailUrl: string | null;
  previewUrl: string | null;
  error: string | null;
  /** The template handle the slot was asked for ('custom', 'auto' or a style's name otherwise). */
  backgroundType?: string | null;
  /** The seed the output's scene was rendered with; null until rendered. */
  seed?: number | null;
}

/** `GET /api/generations/:id`: where a generation stands, whatever happened to sockets or workers. */
export interface GenerationDto {
  id: string;
  kind: GenerationKind;
  status: RunStatus;
  stage: SmartStage | null;
  imageId: string | null;
  productInfo: ProductInfo | null;
  error: string | null;
  unsupportedProduct: boolean;
  styles: StyleSlotDto[];
  createdAt: string;
  /** The output a More like this was made from; null for every other generation. */
  origin?: OutputRef | null;
}
