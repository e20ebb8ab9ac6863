import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { errorResponses, ShortIdParams } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { checkArchiveLink, type ArchiveLinkSecret } from '../../services/archive-links.js';
import { streamArchive } from '../../services/batch-archive.js';
import type { BatchService } from '../../services/batch-service.js';
import { HttpError } from '../../services/http-error.js';

const ArchiveQuery = Type.Object({
  expires: Type.Optional(Type.Integer()),
  signature: Type.Optional(Type.String({ maxLength: 128 })),
});

/**
 * `GET /api/batches/:id/archive`: every finished output of the batch as one zip, streamed from
 * storage into the response. Either the owner's bearer token or the short-lived signed link that
 * `GET /api/batches/:id` hands out (`archiveUrl`) opens it; the web app navigates to the link so
 * the browser writes the zip to disk as it arrives.
 */
export async function archiveRoute(app: FastifyInstance, service: BatchService, secret: ArchiveLinkSecret, deps: AppDeps): Promise<void> {
  app.get<{ Params: { id: string }; Querystring: { expires?: number; signature?: string } }>(
    '/api/batches/:id/archive',
    {
      schema: {
        params: ShortIdParams,
        querystring: ArchiveQuery,
        response: {
          200: { description: 'A zip of every finished output, entries named {product}-{style}-{n}.{ext}', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
          ...errorResponses([400, 401, 403, 404, 409]),
        },
      },
    },
    async (request, reply) => {
      const batch = await linkedOrOwned(request, reply, service, secret);
      if (!batch) return reply;
      const entries = service.archiveEntries(batch);
      if (entries.length === 0) throw new HttpError(409, 'No shot of this batch is finished yet', 'batch_not_ready');
      const zip = streamArchive(deps.store, entries);
      zip.on('error', (error) => request.log.warn({ err: error, batchId: batch.id }, 'batch archive stopped'));
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="prodshot-batch-${batch.id.slice(0, 8)}.zip"`)
        .header('Cache-Control', 'private, no-store')
        .send(zip);
    },
  );
}

/** The batch a valid link names, or the bearer's own; another user's batch is no batch (404). Undefined when the sign-in check already answered. */
async function linkedOrOwned(
  request: FastifyRequest<{ Params: { id: string }; Querystring: { expires?: number; signature?: string } }>,
  reply: FastifyReply,
  service: BatchService,
  secret: ArchiveLinkSecret,
) {
  const { expires, signature } = request.query;
  if (signature === undefined) {
    await requireUser(request, reply);
    if (reply.sent) return undefined;
    return service.owned(request.user.id, request.params.id);
  }
  const verdict = checkArchiveLink(await secret.get(), request.params.id, expires ?? Number.NaN, signature);
  if (verdict === 'expired') throw new HttpError(403, 'This download link has expired: open the batch again for a fresh one', 'link_expired');
  if (verdict === 'invalid') throw new HttpError(403, 'Invalid download link', 'invalid_signature');
  return service.linked(request.params.id);
}
