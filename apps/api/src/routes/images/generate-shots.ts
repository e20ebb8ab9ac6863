import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accepted,
  AcceptedResponse,
  EnhancePromptRequest,
  EnhancePromptResponse,
  errorResponses,
  GenerateBackgroundRequest,
  GenerationTimeoutErrorBody,
  IdParams,
  InsufficientCreditsErrorBody,
  PlanFeatureForbiddenBody,
  ProductShotRequest,
  ProductShotResponse,
  RemoveBackgroundRequest,
  SingleShotRequest,
  SingleShotResponse,
  SmartGenerateRequest,
  StyleRecommendationsRequest,
  StyleRecommendationsResponse,
} from '@prodshot/contracts';
import { bindLogContext } from '../../plugins/log-context.js';
import type { Started } from '../../services/generations/shots-service.js';
import { idempotencyClaim } from '../../http/idempotency-key.js';

/**
 * What a paid call answers besides its success: bad requests and keys, credits, ownership, limits
 * and the wait. Answers every route may give (401 signed out, 503 while shedding load or a
 * dependency is down) are the app's, not listed per route.
 */
const paidErrors = errorResponses([400, 402, 404, 409, 422, 429, 502, 504], {
  402: InsufficientCreditsErrorBody,
  504: GenerationTimeoutErrorBody,
});

function wantsAsync(request: FastifyRequest): boolean {
  return /\brespond-async\b/i.test(String(request.headers.prefer ?? ''));
}

/** From here on the request's log lines carry the ids the worker logs too. */
function enqueued(request: FastifyRequest, reply: FastifyReply, started: Partial<Started> & { jobId: string }): void {
  bindLogContext(
    request,
    reply,
    started.generationId ? { generationId: started.generationId, jobId: started.jobId } : { jobId: started.jobId },
  );
  request.log.info('job enqueued');
}

/**
 * The image model calls of docs/product-spec.md §7. Each reserves credits, enqueues one job and either waits for it
 * (the spec's synchronous contract) or, with `Prefer: respond-async`, answers 202 at once. Prompt
 * enhancement is refused (403) outside the plans that include it, before anything is reserved or
 * queued; every job takes its place in the queue by its seller's plan.
 */
export async function generateShotRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const { shots, waits } = app.services;

  app.post(
    '/api/images/generate-product-shots',
    {
      config: { acceptsIdempotencyKey: true },
      schema: {
        body: ProductShotRequest,
        response: { 200: ProductShotResponse, 202: AcceptedResponse, ...paidErrors },
      },
    },
    async (request, reply) => {
      const started = await shots.startManual(request.user.id, request.body, idempotencyClaim(request));
      enqueued(request, reply, started);
      if (wantsAsync(request)) return reply.status(202).send(accepted({ generationId: started.generationId }));
      const processedImages = await waits.shots('product-shot', started.jobId, started.generationId);
      return { data: { generationId: started.generationId, processedImages } };
    },
  );

  app.post(
    '/api/images/smart-generate-product-shots',
    {
      config: { acceptsIdempotencyKey: true },
      schema: { body: SmartGenerateRequest, response: { 202: AcceptedResponse, ...paidErrors } },
    },
    async (request, reply) => {
      const started = await shots.startSmart(request.user.id, request.body, idempotencyClaim(request));
      enqueued(request, reply, started);
      return reply.status(202).send(accepted({ generationId: started.generationId }));
    },
  );

  app.post(
    '/api/images/generate-product-style-recommendations',
    {
      schema: {
        body: StyleRecommendationsRequest,
        response: {
          200: StyleRecommendationsResponse,
          202: AcceptedResponse,
          ...errorResponses([400, 402, 404, 429, 502, 504], { 402: InsufficientCreditsErrorBody }),
        },
      },
    },
    async (request, reply) => {
      const started = await shots.startStyle(request.user.id, request.body);
      enqueued(request, reply, started);
      if (wantsAsync(request)) return reply.status(202).send(accepted({ generationId: started.generationId }));
      return { data: await waits.recommendations(started.generationId) };
    },
  );

  app.post(
    '/api/images/generate-single-product-shot',
    {
      config: { acceptsIdempotencyKey: true },
      schema: { body: SingleShotRequest, response: { 200: SingleShotResponse, 202: AcceptedResponse, ...paidErrors } },
    },
    async (request, reply) => {
      const { body } = request;
      const started = await shots.startSingle(request.user.id, body, idempotencyClaim(request));
      enqueued(request, reply, started);
      if (wantsAsync(request)) return reply.status(202).send(accepted({ generationId: started.generationId }));
      const processedImage = await waits.styleShot(
        started.jobId,
        started.generationId,
        body.styleIndex,
        body.styleName,
      );
      return { data: { generationId: started.generationId, processedImage } };
    },
  );

  app.post(
    '/api/images/enhance-prompt',
    {
      schema: {
        body: EnhancePromptRequest,
        response: {
          200: EnhancePromptResponse,
          ...errorResponses([400, 403, 429, 502], { 403: PlanFeatureForbiddenBody }),
        },
      },
    },
    async (request, reply) => {
      const { jobId } = await shots.startEnhance(request.user.id, request.body);
      enqueued(request, reply, { jobId });
      return { data: { enhancedPrompt: await waits.enhancedPrompt(jobId) } };
    },
  );

  app.post(
    '/api/images/:id/remove-background',
    {
      config: { acceptsIdempotencyKey: true },
      schema: {
        params: IdParams,
        body: RemoveBackgroundRequest,
        response: { 200: SingleShotResponse, 202: AcceptedResponse, ...paidErrors },
      },
    },
    async (request, reply) => {
      const focus = request.body?.focus;
      const started = await shots.startRemoveBackground(
        request.user.id,
        request.params.id,
        focus,
        idempotencyClaim(request),
      );
      enqueued(request, reply, started);
      if (wantsAsync(request)) return reply.status(202).send(accepted({ generationId: started.generationId }));
      return {
        data: {
          generationId: started.generationId,
          processedImage: await waits.singleOutput('remove-background', started.generationId),
        },
      };
    },
  );

  app.post(
    '/api/images/:id/generate-background',
    {
      config: { acceptsIdempotencyKey: true },
      schema: {
        params: IdParams,
        body: GenerateBackgroundRequest,
        response: { 200: SingleShotResponse, 202: AcceptedResponse, ...paidErrors },
      },
    },
    async (request, reply) => {
      const started = await shots.startGenerateBackground(
        request.user.id,
        request.params.id,
        request.body,
        idempotencyClaim(request),
      );
      enqueued(request, reply, started);
      if (wantsAsync(request)) return reply.status(202).send(accepted({ generationId: started.generationId }));
      return {
        data: {
          generationId: started.generationId,
          processedImage: await waits.singleOutput('generate-background', started.generationId),
        },
      };
    },
  );
}
