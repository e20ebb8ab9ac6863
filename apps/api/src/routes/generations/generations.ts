import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { GenerationService } from '../../services/generation-service.js';

/** Where a generation stands, from Postgres: a reload or a lost socket catches up here. */
export async function generationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const service = new GenerationService(deps);
  app.get<{ Params: { id: string } }>('/api/generations/:id', { onRequest: requireUser }, async (request, reply) => {
    const generation = await service.generations.findOwned(request.user.id, request.params.id);
    if (!generation) return reply.status(404).send(errorBody(404, 'Generation not found', 'generation_not_found'));
    return { data: await service.toDto(generation) };
  });
}
