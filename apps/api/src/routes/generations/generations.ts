import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SMART_STYLES_MAX } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { requestRenditions } from '../../services/rendition-requests.js';
import { sendStoredFile } from '../../services/stored-file.js';

/** A manual request makes at most four slots, a smart one at most SMART_STYLES_MAX. */
const SLOT_INDEX_MAX = SMART_STYLES_MAX - 1;

/** Where a generation stands, from Postgres: a reload or a lost socket catches up here. */
export async function generationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const service = app.services.generations;
  app.get<{ Params: { id: string } }>('/api/generations/:id', { onRequest: requireUser }, async (request, reply) => {
    const generation = await service.generations.findOwned(request.user.id, request.params.id);
    if (!generation) return reply.status(404).send(errorBody(404, 'Generation not found', 'generation_not_found'));
    const without = generation.styles.filter((style) => style.status === 'complete' && style.result_key && !style.renditions);
    await requestRenditions(deps.producer, request.log, without.map((style) => ({ key: style.result_key!, owner: { kind: 'style', id: style.id } })));
    return { data: await service.toDto(generation) };
  });

  // A shot's full file through the API, named for saving (shotDownloadPath): the browser reads it
  // from the app's own origin with its bearer token, wherever the file store is.
  app.get<{ Params: { id: string; index: number } }>(
    '/api/generations/:id/styles/:index/download',
    {
      onRequest: requireUser,
      schema: {
        params: {
          type: 'object',
          required: ['id', 'index'],
          properties: { id: { type: 'string', maxLength: 64 }, index: { type: 'integer', minimum: 0, maximum: SLOT_INDEX_MAX } },
        },
      },
    },
    async (request, reply) => {
      const generation = await service.generations.findOwned(request.user.id, request.params.id);
      if (!generation) return reply.status(404).send(errorBody(404, 'Generation not found', 'generation_not_found'));
      const style = generation.styles.find((slot) => slot.index === request.params.index && slot.status === 'complete' && slot.result_key);
      if (!style?.result_key) return reply.status(404).send(errorBody(404, 'This shot is not ready', 'shot_not_found'));
      const filename = `generation-${generation.id}-${style.index + 1}${path.extname(style.result_key) || '.png'}`;
      return sendStoredFile(reply, deps.store, style.result_key, { attachment: filename });
    },
  );
}
