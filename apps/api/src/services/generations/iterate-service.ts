import { MORE_LIKE_THIS_CREDITS, shotSizeFor, type OutputRef } from '@prodshot/contracts';
import type { GenerationsRepository, IdempotencyClaim, ImagesRepository } from '@prodshot/db';
import { generationOrder, jobIds } from '@prodshot/queue';
import { HttpError } from '../http-error.js';
import type { GenerationLookups } from './generation-lookups.js';
import { newSeed, recordedTaps, sceneOf, slotOf, sourceImage } from './iterate-sources.js';
import type { PaidWork } from './paid-work.js';
import { jobSource } from './shots-service.js';

export interface IterateDeps {
  paidWork: PaidWork;
  lookups: GenerationLookups;
  images: ImagesRepository;
  generations: GenerationsRepository;
}

/**
 * Iterating on a finished result: another take of an output, and a retry of a failed smart style.
 * Both go through paid work like every paid call, once per Idempotency-Key.
 */
export class IterateService {
  constructor(private readonly deps: IterateDeps) {}

  /**
   * Another take of an output: a new generation of one output in the same scene with a new seed.
   * A replayed key answers what the first request made, read back from its row.
   */
  async moreLikeThis(
    userId: string,
    from: OutputRef,
    claim?: IdempotencyClaim,
  ): Promise<{ generationId: string; from: OutputRef; seed: number }> {
    const { paidWork, lookups } = this.deps;
    const generationId = await paidWork.once(claim, 'generation', async () => {
      const origin = await lookups.ownedGeneration(userId, from.generationId);
      const slot = slotOf(origin, from.index);
      if (slot.status !== 'complete')
        throw new HttpError(409, 'This output is not finished: only a finished shot can be varied', 'output_not_ready');
      const scene = sceneOf(origin.kind, slot);
      const [image, plan] = await Promise.all([
        sourceImage(this.deps.images, userId, origin),
        lookups.effectivePlan(userId),
      ]);
      const seed = newSeed(slot.seed);
      const recordedFrom: OutputRef = { generationId: origin.id, index: from.index };
      const focus = recordedTaps(origin);
      const generation = await paidWork.open({
        userId,
        image,
        // A smart run's page shows its recommended styles; one more take of a style is a plain shot.
        kind: origin.kind === 'smart' ? 'manual' : origin.kind,
        request: {
          backgroundType: scene.template ?? null,
          prompt: scene.prompt ?? null,
          count: 1,
          seed,
          from: recordedFrom,
          focus: focus ?? null,
        },
        slots: [{ index: 0, name: slot.name, prompt: slot.prompt, backgroundType: slot.background_type }],
        credits: MORE_LIKE_THIS_CREDITS,
        claim,
      });
      await paidWork.enqueue(
        'product-shot',
        {
          ...jobSource(generation.id, userId, image, { focus }),
          backgroundType: scene.template,
          prompt: scene.prompt,
          count: 1,
          seed,
          upscaleImageFirst: false,
          size: shotSizeFor(plan),
        },
        { jobId: jobIds.generation(generation.id), ...generationOrder(plan) },
        'generation',
        claim,
      );
      return generation.id;
    });
    const made = await lookups.ownedGeneration(userId, generationId);
    const recorded = made.request as { seed: number; from: OutputRef };
    return { generationId, from: recorded.from, seed: recorded.seed };
  }

  /** A failed style of a smart run queued again as its next attempt; its credit is reserved, and refunded if it fails again. */
  async retryStyle(
    userId: string,
    target: OutputRef,
    claim?: IdempotencyClaim,
  ): Promise<{ generationId: string; index: number; attempt: number; jobId: string }> {
    const { paidWork, lookups } = this.deps;
    const { index } = target;
    const generationId = await paidWork.once(claim, 'generation', async () => {
      const generation = await lookups.ownedGeneration(userId, target.generationId);
      const slot = slotOf(generation, index);
      if (generation.kind !== 'smart')
        throw new HttpError(
          409,
          "Only a smart run's styles can be retried: generate this shot again from the editor",
          'not_retryable',
        );
      if (slot.status !== 'failed') throw styleNotFailed(slot.status);
      const [image, plan] = await Promise.all([
        sourceImage(this.deps.images, userId, generation),
        lookups.effectivePlan(userId),
      ]);
      const retried = await paidWork.retrySlot(userId, generation.id, index, claim);
      if (!retried) throw styleNotFailed('queued');
      const productTitle = (generation.product_info as { productTitle?: string } | null)?.productTitle;
      await paidWork.enqueue(
        'style-shot',
        {
          generationId: generation.id,
          userId,
          imageId: image.id,
          sourceKey: image.storage_key,
          focus: recordedTaps(generation),
          productTitle,
          styleIndex: index,
          styleName: retried.name,
          stylePrompt: retried.prompt ?? retried.name,
          size: shotSizeFor(plan),
        },
        { jobId: jobIds.style(generation.id, index, retried.attempt), ...generationOrder(plan) },
        { slot: index },
        claim,
      );
      return generation.id;
    });
    const attempt = await this.deps.generations.slotAttempt(generationId, index);
    return { generationId, index, attempt, jobId: jobIds.style(generationId, index, attempt) };
  }
}

function styleNotFailed(status: string): HttpError {
  const now = status === 'complete' ? 'is done' : 'is still generating';
  return new HttpError(409, `This style ${now}: only a failed style can be retried`, 'style_not_failed');
}
