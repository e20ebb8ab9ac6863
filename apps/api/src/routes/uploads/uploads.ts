import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { ImagesRepository } from '@prodshot/db';

/**
 * Spec §8's fallback path for an upload whose signed URL failed to load: `/uploads/{id}?fallback=true`
 * redirects the owner to a freshly signed URL of the same image.
 */
export async function uploadRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const images = new ImagesRepository(deps.db);
  app.get<{ Params: { id: string } }>('/uploads/:id', { onRequest: requireUser }, async (request, reply) => {
    const row = await images.findOwned(request.user.id, request.params.id);
    if (!row) return reply.status(404).send(errorBody(404, 'Image not found', 'image_not_found'));
    return reply.header('Cache-Control', 'no-store').redirect(await deps.store.signedUrl(row.storage_key), 302);
  });
}
