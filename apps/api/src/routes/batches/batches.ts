import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  accepted,
  BATCH_ITEMS_MAX,
  BATCH_TOO_LARGE_CODE,
  batchTooLargeMessage,
  BatchResponse,
  CreateBatchRequest,
  CreateBatchResponse,
  errorResponses,
  InsufficientCreditsErrorBody,
  ShortIdParams,
  UnsupportedProductErrorBody,
} from '@prodshot/contracts';
import { bindLogContext } from '../../plugins/log-context.js';
import { HttpError } from '../../services/http-error.js';
import { idempotencyClaim } from '../../http/idempotency-key.js';
import { archiveRoute } from './archive.js';

/**
 * Batches: many uploads, one choice, one confirmation. `POST` reserves the whole batch or refuses
 * with the shortfall, or names the photos read as a kind not shot yet (422); `GET` is where a reload or a lost socket catches up; the archive streams
 * every finished output as one zip.
 */
export async function batchRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.batches;

  app.post(
    '/api/batches',
    {
      config: { acceptsIdempotencyKey: true },
      // Counted before the schema so a 21st photo gets a sentence, not a validator's path.
      preValidation: async (request) => {
        const items = (request.body as { items?: unknown } | undefined)?.items;
        if (Array.isArray(items) && items.length > BATCH_ITEMS_MAX)
          throw new HttpError(400, batchTooLargeMessage(items.length), BATCH_TOO_LARGE_CODE);
      },
      schema: {
        body: CreateBatchRequest,
        response: {
          202: CreateBatchResponse,
          ...errorResponses([400, 402, 404, 409, 422, 429], {
            402: InsufficientCreditsErrorBody,
            422: UnsupportedProductErrorBody,
          }),
        },
      },
    },
    async (request, reply) => {
      const { batchId, credits } = await service.create(request.user.id, request.body, idempotencyClaim(request));
      bindLogContext(request, reply, { batchId });
      request.log.info({ items: request.body.items.length, credits }, 'batch started');
      return reply.status(202).send(accepted({ batchId, credits }));
    },
  );

  app.get(
    '/api/batches/:id',
    {
      schema: { params: ShortIdParams, response: { 200: BatchResponse, ...errorResponses([400, 404]) } },
    },
    async (request) => {
      return { data: await service.ownedDto(request.user.id, request.params.id) };
    },
  );

  await archiveRoute(app, service);
}
