import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { GenerationService } from '../../services/generation-service.js';
import { requestRenditions } from '../../services/rendition-requests.js';

/** Where a generation stands, from Postgres: a reload or a lost socket catches up here. */
export async function generationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const service = new GenerationService(deps);
  app.get<{ Params: { id: string } }>('/api/generations/:id', { onRequest: requireUser }, async (request, reply) => {
    const generation = await service.generations.findOwned(request.user.id, request.params.id);
    if (!generation) return reply.status(404).send(errorBody(404, 'Generation not found', 'generation_not_found'));
    const without = generation.styles.filter((style) => style.status === 'complete' && style.result_key && !style.renditions);
    await requestRenditions(deps.producer, request.log, without.map((style) => ({ key: style.result_key!, owner: { kind: 'style', id: style.id } })));
    return { data: await service.toDto(generation) };
  });
}
