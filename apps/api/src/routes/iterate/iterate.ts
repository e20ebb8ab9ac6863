import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  ApiErrorSchema,
  MORE_LIKE_THIS_CREDITS,
  MoreLikeThisResponse,
  OutputParams,
  RetryStyleResponse,
  shotSizeFor,
  type OutputRef,
} from '@prodshot/contracts';
import { generationOrder, jobIds } from '@prodshot/queue';
import { requireUser } from '../../plugins/auth.js';
import { bindLogContext } from '../../plugins/log-context.js';
import { HttpError } from '../../services/http-error.js';
import { jobSource } from '../../services/generation-starts.js';
import { idempotencyClaim } from '../../services/idempotency.js';
import { newSeed, recordedFocus, sceneOf, slotOf, sourceImage } from '../../services/iterate-sources.js';

const errors = { 400: ApiErrorSchema, 402: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema, 422: ApiErrorSchema };

/**
 * Iterating on a result: another take of an output (a new generation of one output, same scene,
 * new seed) and a retry of a failed smart style. Both answer 202 at once; the work arrives over the
 * socket and at GET /api/generations/:id. Both accept an Idempotency-Key like every paid call.
 */
export async function iterateRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.generations;
  app.addHook('onRequest', requireUser);

  app.post(
    '/api/generations/:id/outputs/:index/more-like-this',
    { schema: { params: OutputParams, response: { 202: MoreLikeThisResponse, ...errors } } },
    async (request, reply) => {
      const userId = request.user.id;
      const { id, index } = request.params;
      const claim = idempotencyClaim(request);
      const { generationId } = await service.once(claim, async () => {
        const origin = await service.ownedGeneration(userId, id);
        const slot = slotOf(origin, index);
        if (slot.status !== 'complete') throw new HttpError(409, 'This output is not finished: only a finished shot can be varied', 'output_not_ready');
        const scene = sceneOf(origin.kind, slot);
        const [image, plan] = await Promise.all([sourceImage(service.images, userId, origin), service.effectivePlan(userId)]);
        const seed = newSeed(slot.seed);
        const from: OutputRef = { generationId: origin.id, index };
        const focus = recordedFocus(origin);
        const generation = await service.open({
          userId,
          image,
          // A smart run's page shows its recommended styles; one more take of a style is a plain shot.
          kind: origin.kind === 'smart' ? 'manual' : origin.kind,
          request: { backgroundType: scene.template ?? null, prompt: scene.prompt ?? null, count: 1, seed, from, focus: focus ?? null },
          slots: [{ index: 0, name: slot.name, prompt: slot.prompt, backgroundType: slot.background_type }],
          credits: MORE_LIKE_THIS_CREDITS,
          claim,
        });
        await service.enqueue(
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
      bindLogContext(request, reply, { generationId, jobId: generationId });
      // A replayed key answers what the first request made, read back from its row.
      const made = await service.ownedGeneration(userId, generationId);
      const recorded = made.request as { seed: number; from: OutputRef };
      return reply.status(202).send({ data: { generationId, status: 'queued' as const, from: recorded.from, seed: recorded.seed } });
    },
  );

  app.post(
    '/api/generations/:id/styles/:index/retry',
    { schema: { params: OutputParams, response: { 202: RetryStyleResponse, ...errors } } },
    async (request, reply) => {
      const userId = request.user.id;
      const { id, index } = request.params;
      const claim = idempotencyClaim(request);
      const { generationId } = await service.once(claim, async () => {
        const generation = await service.ownedGeneration(userId, id);
        const slot = slotOf(generation, index);
        if (generation.kind !== 'smart') {
          throw new HttpError(409, "Only a smart run's styles can be retried: generate this shot again from the editor", 'not_retryable');
        }
        if (slot.status !== 'failed') throw styleNotFailed(slot.status);
        const [image, plan] = await Promise.all([sourceImage(service.images, userId, generation), service.effectivePlan(userId)]);
        const retried = await service.retrySlot(userId, generation.id, index, claim);
        if (!retried) throw styleNotFailed('queued');
        const productTitle = (generation.product_info as { productTitle?: string } | null)?.productTitle;
        await service.enqueue(
          'style-shot',
          {
            generationId: generation.id,
            userId,
            imageId: image.id,
            sourceKey: image.storage_key,
            focus: recordedFocus(generation),
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
      const attempt = await service.generations.slotAttempt(generationId, index);
      bindLogContext(request, reply, { generationId, jobId: jobIds.style(generationId, index, attempt) });
      return reply.status(202).send({ data: { generationId, index, attempt, status: 'queued' as const } });
    },
  );
}

function styleNotFailed(status: string): HttpError {
  const now = status === 'complete' ? 'is done' : 'is still generating';
  return new HttpError(409, `This style ${now}: only a failed style can be retried`, 'style_not_failed');
}
