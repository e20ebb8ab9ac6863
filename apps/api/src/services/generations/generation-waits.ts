import {
  GENERATION_FAILED_MESSAGE,
  type JobName,
  type ProcessedImageDto,
  type StyleRecommendationsResponse,
} from '@prodshot/contracts';
import type { GenerationsRepository, GenerationWithStyles } from '@prodshot/db';
import type { JobProducer } from '@prodshot/queue';
import type { ObjectStore } from '@prodshot/storage';
import { awaitJob } from '../await-job.js';
import { processedImage, processedImages } from './generation-dtos.js';
import { HttpError } from '../http-error.js';

/** How long a synchronous call waits for its job before answering 504 (the job goes on). */
const SYNC_WAIT_MS = 90_000;
// Long enough for a crashed worker's enhance job to be picked up again (lock expiry plus a retry).
const ENHANCE_WAIT_MS = 45_000;
// A cutout takes about a second; the seller is looking at the photo they tapped, so fail soon and let them tap again.
const OUTLINE_WAIT_MS = 30_000;

export interface WaitDeps {
  producer: JobProducer;
  store: ObjectStore;
  generations: GenerationsRepository;
}

/** A tap on nothing the engine can cut out: the seller's miss, said so, with the outline kept. */
const TAP_MISSED_MESSAGE =
  'Nothing there to cut out: no product could be found where you tapped. Tap on the product itself; your outline is as it was.';

/**
 * The synchronous contract of the image model calls (docs/product-spec.md §7): the call waits for its job and
 * answers with its outputs, or with the clear reason there are none. A wait that runs out is 504
 * naming where the generation goes on; a failed job is 502 with the generation's own error.
 */
export class GenerationWaits {
  constructor(private readonly deps: WaitDeps) {}

  /**
   * The outline for a seller's tap, once the worker has recorded it on the upload; a tap on nothing
   * the engine can cut out is the seller's miss: 422, with the outline left as it was.
   */
  async outline(jobId: string): Promise<void> {
    const { missed } = await awaitJob(
      this.deps.producer,
      { name: 'make-outline', id: jobId, waitMs: OUTLINE_WAIT_MS },
      {
        timedOut: () =>
          new HttpError(
            504,
            'Finding your product is taking longer than expected. Please tap again.',
            'outline_timeout',
          ),
        failed: (error) =>
          new HttpError(502, error.message || 'Could not cut out your product there: tap it again', 'outline_failed'),
      },
    );
    if (missed) throw new HttpError(422, TAP_MISSED_MESSAGE, 'tap_missed');
  }

  /** Every output of a generation once its job settled: product shots. */
  async shots(name: JobName, jobId: string, generationId: string): Promise<ProcessedImageDto[]> {
    const generation = await this.settled(name, jobId, generationId);
    const images = await processedImages(this.deps.store, generation);
    if (images.length === 0) throw generationFailed(generation.error);
    return images;
  }

  /** The one output of a background removal or a generated background. */
  async singleOutput(name: JobName, generationId: string): Promise<ProcessedImageDto> {
    const [image] = await this.shots(name, generationId, generationId);
    return image!;
  }

  /** One style slot's output, labelled with the style's name. */
  async styleShot(
    jobId: string,
    generationId: string,
    styleIndex: number,
    styleName: string,
  ): Promise<ProcessedImageDto> {
    const generation = await this.settled('style-shot', jobId, generationId);
    const slot = generation.styles.find((s) => s.index === styleIndex);
    if (!slot || slot.status !== 'complete' || !slot.result_key) throw generationFailed(slot?.error ?? null);
    return processedImage(this.deps.store, slot, styleName);
  }

  /** The styles recommended for the product, for the client to generate one by one. */
  async recommendations(generationId: string): Promise<StyleRecommendationsResponse['data']> {
    const result = await awaitJob(
      this.deps.producer,
      { name: 'style-recommendation', id: generationId, waitMs: SYNC_WAIT_MS },
      {
        timedOut: () =>
          new HttpError(
            504,
            'Style recommendations are taking longer than expected. Please try again.',
            'generation_timeout',
          ),
        failed: async () => {
          const after = await this.deps.generations.find(generationId);
          return new HttpError(502, after?.error ?? 'Failed to get style recommendations', 'recommendation_failed');
        },
      },
    );
    return {
      generationId,
      productInfo: result.productInfo,
      styles: result.styles,
      ...(result.unsupportedProduct ? { unsupportedProduct: true, message: result.unsupportedProduct.message } : {}),
    };
  }

  async enhancedPrompt(jobId: string): Promise<string> {
    const enhanceFailed = () => new HttpError(502, 'Failed to enhance prompt', 'enhance_failed');
    const { enhancedPrompt } = await awaitJob(
      this.deps.producer,
      { name: 'enhance-prompt', id: jobId, waitMs: ENHANCE_WAIT_MS },
      { timedOut: enhanceFailed, failed: enhanceFailed },
    );
    return enhancedPrompt;
  }

  /** The generation once its job finished or failed; a wait that runs out is 504 (the job goes on). */
  private async settled(name: JobName, jobId: string, generationId: string): Promise<GenerationWithStyles> {
    // A failed job is read from the generation it leaves behind: its slots carry their own errors.
    await awaitJob(
      this.deps.producer,
      { name, id: jobId, waitMs: SYNC_WAIT_MS },
      {
        timedOut: () =>
          new HttpError(
            504,
            'This is taking longer than expected. It goes on in the background; follow it at GET /api/generations/' +
              generationId,
            'generation_timeout',
            { generationId },
          ),
      },
    );
    const generation = await this.deps.generations.find(generationId);
    return generation!;
  }
}

function generationFailed(message: string | null): HttpError {
  return new HttpError(502, message ?? GENERATION_FAILED_MESSAGE, 'generation_failed');
}
