import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { jobIds } from '@prodshot/queue';
import type { FastifyInstance } from 'fastify';
import {
  accepted,
  errorResponses,
  InsufficientCreditsErrorBody,
  MoreLikeThisResponse,
  OutputParams,
  RetryStyleResponse,
} from '@prodshot/contracts';
import { bindLogContext } from '../../plugins/log-context.js';
import { idempotencyClaim } from '../../http/idempotency-key.js';

const errors = errorResponses([400, 402, 404, 409, 422, 429], { 402: InsufficientCreditsErrorBody });

/**
 * Iterating on a result: another take of an output (a new generation of one output, same scene,
 * new seed) and a retry of a failed smart style. Both answer 202 at once; the work arrives over the
 * socket and at GET /api/generations/:id. Both accept an Idempotency-Key like every paid call.
 */
export async function iterateRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.iterate;

  app.post(
    '/api/generations/:id/outputs/:index/more-like-this',
    {
      config: { acceptsIdempotencyKey: true },
      schema: { params: OutputParams, response: { 202: MoreLikeThisResponse, ...errors } },
    },
    async (request, reply) => {
      const { id, index } = request.params;
      const made = await service.moreLikeThis(request.user.id, { generationId: id, index }, idempotencyClaim(request));
      bindLogContext(request, reply, { generationId: made.generationId, jobId: jobIds.generation(made.generationId) });
      return reply.status(202).send(accepted(made));
    },
  );

  app.post(
    '/api/generations/:id/styles/:index/retry',
    {
      config: { acceptsIdempotencyKey: true },
      schema: { params: OutputParams, response: { 202: RetryStyleResponse, ...errors } },
    },
    async (request, reply) => {
      const { id, index } = request.params;
      const { jobId, ...retried } = await service.retryStyle(
        request.user.id,
        { generationId: id, index },
        idempotencyClaim(request),
      );
      bindLogContext(request, reply, { generationId: retried.generationId, jobId });
      return reply.status(202).send(accepted(retried));
    },
  );
}
