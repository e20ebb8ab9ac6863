import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, IdParams, UploadFallbackQuery } from '@prodshot/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { sendStoredFile } from '../../http/stored-file.js';

/**
 * docs/product-spec.md §8's fallback path for an upload whose signed URL failed to load: `/uploads/{id}?fallback=true`
 * answers the owner the image itself (its thumbnail, or the upload where it has none), read with
 * the bearer token like any API call. No redirect: a redirect to MinIO or S3 would need the
 * bucket to allow the app's origin, and the link it leads to may be the one that failed.
 */
export async function uploadRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const { uploadFallback } = app.services;
  app.get(
    '/uploads/:id',
    {
      schema: {
        params: IdParams,
        querystring: UploadFallbackQuery,
        response: {
          200: {
            description: 'The image (its thumbnail where it has one)',
            content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses([401, 404]),
        },
      },
    },
    async (request, reply) =>
      sendStoredFile(reply, deps.store, await uploadFallback.fileKey(request.user.id, request.params.id), 'inline'),
  );
}
