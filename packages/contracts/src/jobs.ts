import type { ComplianceCheckJob, ComplianceReportDto, ExportShotJob, ExportShotResult } from './exports.js';
import type { Focus, Tap } from './images.js';
import type { ProductInfo } from './products.js';
import type { ShotBackground, TemplateHandle } from './templates.js';
import type { DeliverWebhookJob } from './webhooks.js';

interface SourceImage {
  generationId: string;
  userId: string;
  imageId: string;
  /** Storage key of the re-encoded upload. */
  sourceKey: string;
  productTitle?: string | undefined;
  productDescription?: string | undefined;
  /** The seller's taps, as the API read them from the call or the outline they fixed (see JobFocus). */
  focus?: JobFocus | undefined;
}

/**
 * The taps a job cuts out with. The API sends the list; a job queued before taps (a rolling deploy
 * finds it in Redis) holds the single point it was, which the worker reads as one keep tap.
 */
export type JobFocus = Tap[] | Focus;

/** Output side in pixels, by plan (docs/decisions.md). */
export type ShotSize = 1024 | 2048 | 4096;

export interface ProductShotJob extends SourceImage {
  /** 'auto': the worker picks one scene from its analysis of the product and renders every output in it. */
  backgroundType?: ShotBackground | undefined;
  prompt?: string | undefined;
  count: number;
  upscaleImageFirst: boolean;
  size: ShotSize;
  /** The first output's seed (More like this picks a new one); absent, each slot's seed comes from its id. */
  seed?: number | undefined;
}

interface StyleRecommendationCommon extends SourceImage {
  size: ShotSize;
}

/**
 * Who runs a smart generation after its styles are recommended. 'fan-out': the server, opening and
 * enqueueing one style-shot per style, up to the `styleCount` paid for. 'client': the seller's
 * client gets the styles and opens the slots it wants; nothing is paid for yet.
 */
export type StyleRecommendationMode = { mode: 'fan-out'; styleCount: number } | { mode: 'client' };

export type StyleRecommendationJob = StyleRecommendationCommon & StyleRecommendationMode;

export interface StyleShotJob extends SourceImage {
  styleIndex: number;
  styleName: string;
  stylePrompt: string;
  size: ShotSize;
}

export type RemoveBackgroundJob = SourceImage;

export interface GenerateBackgroundJob extends SourceImage {
  backgroundType?: TemplateHandle | undefined;
  prompt?: string | undefined;
  size: ShotSize;
}

/** Finds an upload's product and makes its cutout once, for the tap step and every generation after. */
export interface AnalyseUploadJob {
  userId: string;
  imageId: string;
  sourceKey: string;
  /** The owner's plan's shot side when queued: the coach judges whether the product has pixels enough for it. */
  shotSize: ShotSize;
}

/**
 * Makes the thumbnail and preview of an image stored before renditions existed, the first time a
 * list shows it (until then its full URL stands in), and records them on the row that owns it.
 */
/**
 * Makes the outline the seller sees before paying (the cutout's preview and whether the engine is
 * unsure of it), for the engine's own pick or the seller's tap, and records it on the upload.
 */
export interface MakeOutlineJob {
  userId: string;
  imageId: string;
  sourceKey: string;
  focus?: JobFocus | undefined;
}

export interface MakeRenditionsJob {
  /** Storage key of the stored image. */
  key: string;
  owner: { kind: 'image' | 'style'; id: string };
}

export interface SweepStaleGenerationsJob {
  /** Unfinished generations untouched for this long are checked for vanished jobs. */
  staleAfterMs: number;
}

/**
 * Deletes what has outlived its owner's plan's history (generations and uploads: files, then
 * rows), oldest first, `batchSize` items at a time and at most `maxBatches` batches per run; the
 * next run goes on from there.
 */
export interface PurgeExpiredHistoryJob {
  batchSize: number;
  maxBatches: number;
}

export interface EnhancePromptJob {
  /** The seller, for the hosted model's abuse tracking (sent hashed). */
  userId: string;
  prompt: string;
  productTitle?: string | undefined;
}

/**
 * Job names and their payloads: the one typed map that the API (producer) and the worker
 * (consumer) share. Every name here must have a handler in apps/worker/src/handlers, which the
 * worker's handler table enforces at compile time.
 */
export interface JobPayloads {
  'product-shot': ProductShotJob;
  'style-recommendation': StyleRecommendationJob;
  'style-shot': StyleShotJob;
  'remove-background': RemoveBackgroundJob;
  'generate-background': GenerateBackgroundJob;
  'enhance-prompt': EnhancePromptJob;
  'analyse-upload': AnalyseUploadJob;
  'make-outline': MakeOutlineJob;
  'make-renditions': MakeRenditionsJob;
  'sweep-stale-generations': SweepStaleGenerationsJob;
  'purge-expired-history': PurgeExpiredHistoryJob;
  'export-shot': ExportShotJob;
  'compliance-check': ComplianceCheckJob;
  'deliver-webhook': DeliverWebhookJob;
}

export type JobName = keyof JobPayloads;

/** What each job returns to a caller waiting on it. */
export interface JobResults {
  'product-shot': { generationId: string };
  'style-recommendation': {
    generationId: string;
    productInfo: ProductInfo;
    styles: { name: string; prompt: string }[];
    /** Set when the product kind is one we do not support yet (docs/product-spec.md §8). */
    unsupportedProduct: { message: string } | null;
  };
  'style-shot': { generationId: string; index: number };
  'remove-background': { generationId: string };
  'generate-background': { generationId: string };
  'enhance-prompt': { enhancedPrompt: string };
  'analyse-upload': { imageId: string; needsFocus: boolean };
  /**
   * `missed`: the engine found nothing to cut out where the seller tapped (their miss, answered 422);
   * the outline on the upload stays as it was.
   */
  'make-outline': { imageId: string; missed?: true };
  /** false when the image was deleted before its turn came. */
  'make-renditions': { made: boolean };
  'sweep-stale-generations': { resolved: string[] };
  /** How many of each were deleted. */
  'purge-expired-history': { generations: number; images: number; batches: number };
  'export-shot': ExportShotResult;
  'compliance-check': ComplianceReportDto;
  /** How the receiver answered; a failed attempt throws instead, so BullMQ retries it. */
  'deliver-webhook': { status: 'delivered' | 'skipped'; statusCode?: number };
}
