import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ArchiveQuery, errorResponses, ShortIdParams } from '@prodshot/contracts';
import { requireUser } from '../../plugins/auth.js';
import type { BatchService } from '../../services/batches/batch-service.js';

/**
 * `GET /api/batches/:id/archive`: every finished output of the batch as one zip, streamed from
 * storage into the response. Either the owner's bearer token or the short-lived signed link that
 * `GET /api/batches/:id` hands out (`archiveUrl`) opens it; the web app navigates to the link so
 * the browser writes the zip to disk as it arrives. Downloads count against the batch owner's
 * archive limit whichever way they come in.
 */
export async function archiveRoute(appBase: FastifyInstance, service: BatchService): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/batches/:id/archive',
    {
      schema: {
        params: ShortIdParams,
        querystring: ArchiveQuery,
        response: {
          200: {
            description:
              'A zip of every finished output as Download saves it (JPEG), or the originals with file=original; entries named {product}-{style}-{n}.{ext}',
            content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses([400, 401, 403, 404, 409, 429]),
        },
      },
    },
    async (request, reply) => {
      const batch = await linkedOrOwned(request, reply, service, request.params.id, request.query);
      if (!batch) return reply;
      await app.rateLimits.take(request, reply, 'archive', batch.user_id);
      const zip = service.archive(batch, request.query.file);
      zip.on('error', (error) => request.log.warn({ err: error, batchId: batch.id }, 'batch archive stopped'));
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="prodshot-batch-${batch.id.slice(0, 8)}.zip"`)
        .header('Cache-Control', 'private, no-store')
        .send(zip);
    },
  );
}

/** The batch a signed link names, or else the bearer's own; undefined when the sign-in check already answered (401). */
async function linkedOrOwned(
  request: FastifyRequest,
  reply: FastifyReply,
  service: BatchService,
  batchId: string,
  { expires, signature }: ArchiveQuery,
) {
  if (signature !== undefined) return service.linked(batchId, expires, signature);
  await requireUser(request, reply);
  if (reply.sent) return undefined;
  return service.owned(request.user.id, batchId);
}
