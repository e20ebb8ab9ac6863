import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  GENERATION_FAILED_MESSAGE,
  AUTO_BACKGROUND,
  EnhancePromptRequest,
  GenerateBackgroundRequest,
  ProductShotRequest,
  RemoveBackgroundRequest,
  SingleShotRequest,
  SMART_STYLES_DEFAULT,
  shotSizeFor,
  SmartGenerateRequest,
  StyleRecommendationsRequest,
  type Focus,
  type JobName,
} from '@prodshot/contracts';
import { generationOrder, JobFailedError, jobIds, JobTimeoutError } from '@prodshot/queue';
import { signImage } from '@prodshot/storage';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { bindLogContext } from '../../plugins/log-context.js';
import { errorBody } from '../../plugins/error-handler.js';
import { slotsFor } from '../../services/generation-service.js';
import { jobSource, productShotStart, smartStart, startGeneration } from '../../services/generation-starts.js';
import { HttpError } from '../../services/http-error.js';
import { idempotencyClaim } from '../../services/idempotency.js';

/** How long a synchronous call waits for its job before answering 504 (the job goes on). */
const SYNC_WAIT_MS = 90_000;
// Long enough for a crashed worker's enhance job to be picked up again (lock expiry plus a retry).
const ENHANCE_WAIT_MS = 45_000;

function wantsAsync(request: FastifyRequest): boolean {
  return /\brespond-async\b/i.test(String(request.headers.prefer ?? ''));
}

function blank(text: string | undefined): boolean {
  return !text || text.trim().length === 0;
}

/**
 * The image model calls of spec §7. Each reserves credits, enqueues one job and either waits for it
 * (the spec's synchronous contract) or, with `Prefer: respond-async`, answers 202 at once. Prompt
 * enhancement is refused (403) outside the plans that include it, before anything is reserved or
 * queued; every job takes its place in the queue by its seller's plan.
 */
export async function generationCallRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.generations;
  app.addHook('onRequest', requireUser);

  /** Waits for a generation's job and answers with its outputs, or the clear reason there are none. */
  async function settle<K extends JobName>(reply: FastifyReply, name: K, jobId: string, generationId: string) {
    try {
      await deps.producer.waitFor(name, jobId, SYNC_WAIT_MS);
    } catch (error) {
      if (error instanceof JobTimeoutError) {
        return {
          done: false as const,
          reply: reply.status(504).send({
            ...errorBody(504, 'This is taking longer than expected. It goes on in the background; follow it at GET /api/generations/' + generationId, 'generation_timeout'),
            generationId,
          }),
        };
      }
      if (!(error instanceof JobFailedError)) throw error;
    }
    const generation = await service.generations.find(generationId);
    return { done: true as const, generation: generation! };
  }

  /** From here on the request's log lines carry the ids the worker logs too. */
  function accepted(request: FastifyRequest, reply: FastifyReply, generationId: string | undefined, jobId: string) {
    bindLogContext(request, reply, generationId ? { generationId, jobId } : { jobId });
    request.log.info('job enqueued');
  }

  /** Answers 202 at once with `Prefer: respond-async`; otherwise waits for the job (the spec's synchronous contract). */
  async function answerOrWait<K extends JobName>(request: FastifyRequest, reply: FastifyReply, name: K, jobId: string, generationId: string) {
    accepted(request, reply, generationId, jobId);
    if (wantsAsync(request)) return { done: false as const, reply: reply.status(202).send({ data: { generationId, status: 'queued' } }) };
    return settle(reply, name, jobId, generationId);
  }

  function failed(reply: FastifyReply, message: string | null) {
    return reply.status(502).send(errorBody(502, message ?? GENERATION_FAILED_MESSAGE, 'generation_failed'));
  }

  app.post('/api/images/generate-product-shots', { schema: { body: ProductShotRequest } }, async (request, reply) => {
    const body = request.body;
    if (!body.backgroundType && blank(body.prompt)) {
      return reply.status(400).send(errorBody(400, 'Choose a template or describe a background', 'missing_background'));
    }
    const auto = body.backgroundType === AUTO_BACKGROUND;
    if (auto && !blank(body.prompt)) {
      return reply.status(400).send(errorBody(400, 'Auto mode picks the scene itself: send no prompt with it', 'auto_with_prompt'));
    }
    const userId = request.user.id;
    const claim = idempotencyClaim(request);
    const { generationId } = await service.once(claim, async () => {
      const [image, plan] = await Promise.all([service.ownedImage(userId, body), service.effectivePlan(userId)]);
      const start = productShotStart({
        userId,
        image,
        plan,
        order: generationOrder(plan),
        hints: body,
        backgroundType: body.backgroundType,
        prompt: body.prompt?.trim() || undefined,
        count: body.count ?? 1,
        upscaleImageFirst: body.upscaleImageFirst,
      });
      return startGeneration(service, start, claim);
    });
    const result = await answerOrWait(request, reply, 'product-shot', generationId, generationId);
    if (!result.done) return result.reply;
    const processedImages = await service.processedImages(result.generation);
    if (processedImages.length === 0) return failed(reply, result.generation.error);
    return { data: { generationId, processedImages } };
  });

  app.post('/api/images/smart-generate-product-shots', { schema: { body: SmartGenerateRequest } }, async (request, reply) => {
    const body = request.body;
    const userId = request.user.id;
    const claim = idempotencyClaim(request);
    const { generationId } = await service.once(claim, async () => {
      const [image, plan] = await Promise.all([service.ownedImage(userId, body), service.effectivePlan(userId)]);
      const styleCount = body.styleCount ?? SMART_STYLES_DEFAULT;
      return startGeneration(service, smartStart({ userId, image, plan, order: generationOrder(plan), hints: body, flow: { mode: 'fan-out', styleCount } }), claim);
    });
    accepted(request, reply, generationId, generationId);
    return reply.status(202).send({ data: { generationId, status: 'queued' } });
  });

  app.post('/api/images/generate-product-style-recommendations', { schema: { body: StyleRecommendationsRequest } }, async (request, reply) => {
    const body = request.body;
    const userId = request.user.id;
    const [image, plan] = await Promise.all([service.ownedImage(userId, body), service.effectivePlan(userId)]);
    const generationId = await startGeneration(service, smartStart({ userId, image, plan, order: generationOrder(plan), hints: body, flow: { mode: 'client' } }));
    accepted(request, reply, generationId, generationId);
    if (wantsAsync(request)) return reply.status(202).send({ data: { generationId, status: 'queued' } });
    try {
      const result = await deps.producer.waitFor('style-recommendation', generationId, SYNC_WAIT_MS);
      return {
        data: {
          generationId,
          productInfo: result.productInfo,
          styles: result.styles,
          ...(result.unsupportedProduct ? { unsupportedProduct: true, message: result.unsupportedProduct.message } : {}),
        },
      };
    } catch (error) {
      if (error instanceof JobTimeoutError) return reply.status(504).send(errorBody(504, 'Style recommendations are taking longer than expected. Please try again.', 'generation_timeout'));
      if (error instanceof JobFailedError) {
        const after = await service.generations.find(generationId);
        return reply.status(502).send(errorBody(502, after?.error ?? 'Failed to get style recommendations', 'recommendation_failed'));
      }
      throw error;
    }
  });

  app.post('/api/images/generate-single-product-shot', { schema: { body: SingleShotRequest } }, async (request, reply) => {
    const body = request.body;
    const userId = request.user.id;
    const claim = idempotencyClaim(request);
    const jobId = jobIds.style(body.generationId, body.styleIndex);
    const { generationId } = await service.once(claim, async () => {
      const [generation, plan] = await Promise.all([service.ownedGeneration(userId, body.generationId), service.effectivePlan(userId)]);
      const image = await service.ownedImage(userId, { imageId: generation.image_id ?? body.imageId, fileId: body.fileId, imageUrl: body.imageUrl });
      const existing = generation.styles.find((s) => s.index === body.styleIndex);
      if (existing?.status === 'failed') throw new HttpError(409, `This style already failed; retry it with POST /api/generations/${generation.id}/styles/${body.styleIndex}/retry`, 'style_failed');
      const slot = { index: body.styleIndex, name: body.styleName, prompt: body.stylePrompt, backgroundType: body.styleName };
      // A style already opened costs nothing again; the key still records what it asked for.
      if (existing) await service.claimKey(claim, generation.id);
      else await service.openSlot(userId, generation.id, slot, claim);
      await service.enqueue(
        'style-shot',
        {
          ...jobSource(generation.id, userId, image, body),
          styleIndex: body.styleIndex,
          styleName: body.styleName,
          stylePrompt: body.stylePrompt,
          size: shotSizeFor(plan),
        },
        { jobId, ...generationOrder(plan) },
        existing ? 'nothing' : { slot: body.styleIndex },
        claim,
      );
      return generation.id;
    });
    const result = await answerOrWait(request, reply, 'style-shot', jobId, generationId);
    if (!result.done) return result.reply;
    const slot = result.generation.styles.find((s) => s.index === body.styleIndex);
    if (!slot || slot.status !== 'complete' || !slot.result_key) return failed(reply, slot?.error ?? null);
    return {
      data: {
        generationId,
        processedImage: { ...(await signImage(deps.store, slot.result_key, slot.renditions)), settings: { backgroundType: body.styleName } },
      },
    };
  });

  app.post('/api/images/enhance-prompt', { schema: { body: EnhancePromptRequest } }, async (request, reply) => {
    if (blank(request.body.prompt)) return reply.status(400).send(errorBody(400, 'Write a prompt to enhance', 'empty_prompt'));
    const userId = request.user.id;
    const plan = await service.planWith(userId, 'promptEnhancement');
    const jobId = jobIds.enhance(randomUUID());
    await deps.producer.enqueue(
      'enhance-prompt',
      { userId, prompt: request.body.prompt.trim(), productTitle: request.body.productTitle },
      { jobId, attempts: 2, ...generationOrder(plan) },
    );
    accepted(request, reply, undefined, jobId);
    try {
      const { enhancedPrompt } = await deps.producer.waitFor('enhance-prompt', jobId, ENHANCE_WAIT_MS);
      return { data: { enhancedPrompt } };
    } catch (error) {
      if (error instanceof JobTimeoutError || error instanceof JobFailedError) {
        return reply.status(502).send(errorBody(502, 'Failed to enhance prompt', 'enhance_failed'));
      }
      throw error;
    }
  });

  /** One-output calls on a stored image: remove-background and generate-background. */
  async function singleOutput(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    kind: 'remove-background' | 'generate-background',
    background: { backgroundType?: string | undefined; prompt?: string | undefined },
    focus: Focus | undefined,
  ) {
    const userId = request.user.id;
    const claim = idempotencyClaim(request);
    const { generationId } = await service.once(claim, async () => {
      const [image, plan] = await Promise.all([service.ownedImage(userId, { imageId: request.params.id }), service.effectivePlan(userId)]);
      const slotName = kind === 'remove-background' ? 'Background removed' : undefined;
      const [slot] = slotsFor(1, background.backgroundType, background.prompt);
      const generation = await service.open({
        userId,
        image,
        kind,
        request: { ...background, focus: focus ?? null },
        slots: [{ ...slot!, ...(slotName ? { name: slotName, backgroundType: 'transparent' } : {}) }],
        credits: 1,
        claim,
      });
      const source = jobSource(generation.id, userId, image, { focus });
      const job = { jobId: jobIds.generation(generation.id), ...generationOrder(plan) };
      if (kind === 'remove-background') await service.enqueue('remove-background', source, job, 'generation', claim);
      else
        await service.enqueue(
          'generate-background',
          { ...source, backgroundType: background.backgroundType as never, prompt: background.prompt, size: shotSizeFor(plan) },
          job,
          'generation',
          claim,
        );
      return generation.id;
    });
    const result = await answerOrWait(request, reply, kind, generationId, generationId);
    if (!result.done) return result.reply;
    const [processedImage] = await service.processedImages(result.generation);
    if (!processedImage) return failed(reply, result.generation.error);
    return { data: { generationId, processedImage } };
  }

  app.post<{ Params: { id: string } }>('/api/images/:id/remove-background', { schema: { body: RemoveBackgroundRequest } }, (request, reply) =>
    singleOutput(request, reply, 'remove-background', {}, (request.body as RemoveBackgroundRequest | undefined)?.focus),
  );

  app.post<{ Params: { id: string } }>('/api/images/:id/generate-background', { schema: { body: GenerateBackgroundRequest } }, (request, reply) => {
    const body = request.body as GenerateBackgroundRequest;
    if (!body.backgroundType && blank(body.prompt)) {
      return reply.status(400).send(errorBody(400, 'Choose a template or describe a background', 'missing_background'));
    }
    return singleOutput(request, reply, 'generate-background', { backgroundType: body.backgroundType, prompt: body.prompt?.trim() || undefined }, body.focus);
  });
}
