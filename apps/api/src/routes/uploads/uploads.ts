import type { FastifyInstance } from 'fastify';
import { ImagesRepository } from '@prodshot/db';
import { renditionKey } from '@prodshot/storage';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { sendStoredFile } from '../../services/stored-file.js';

/**
 * Spec §8's fallback path for an upload whose signed URL failed to load: `/uploads/{id}?fallback=true`
 * answers the owner the image itself (its thumbnail, or the upload where it has none), read with
 * the bearer token like any API call. No redirect: a redirect to MinIO or S3 would need the
 * bucket to allow the app's origin, and the link it leads to may be the one that failed.
 */
export async function uploadRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const images = new ImagesRepository(deps.db);
  app.get<{ Params: { id: string } }>('/uploads/:id', { onRequest: requireUser }, async (request, reply) => {
    const row = await images.findOwned(request.user.id, request.params.id);
    if (!row) return reply.status(404).send(errorBody(404, 'Image not found', 'image_not_found'));
    const thumbnail = row.renditions ? renditionKey(row.storage_key, 'thumbnail') : null;
    const key = thumbnail && (await deps.store.stat(thumbnail)) ? thumbnail : row.storage_key;
    return sendStoredFile(reply, deps.store, key, 'inline');
  });
}
