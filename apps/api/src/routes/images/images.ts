import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  GenerationListResponse,
  ImageListResponse,
  IMAGES_PAGE_DEFAULT,
  ListPageQuery,
  RECENT_GENERATIONS_DEFAULT,
  shotSizeFor,
  subjectDto,
  UPLOAD_MAX_BYTES,
  type SubjectResponse,
} from '@prodshot/contracts';
import type { IdempotencyClaim, IdempotencyKeyRow, ImageRow } from '@prodshot/db';
import { jobIds } from '@prodshot/queue';
import { deleteImageFiles } from '@prodshot/storage';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { HttpError } from '../../services/http-error.js';
import { heldTarget, idempotencyClaim } from '../../services/idempotency.js';
import { imagingErrorStatus } from '../../services/imaging-errors.js';
import { decodeCursor, encodeCursor } from '../../services/list-cursor.js';
import { requestRenditions } from '../../services/rendition-requests.js';
import { cleanName, storeUpload, toImageDto, UploadDecoder, UploadsBusyError } from '../../services/upload-service.js';

interface UploadParts {
  files: number;
  /** A text field longer than the limit: refused rather than silently cut. */
  oversizedField: boolean;
  bytes: Buffer | null;
  filename: string | undefined;
  name: string | undefined;
}

/** Uploads and the user's own image list. Every id is looked up within the caller's images only. */
export async function imageRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const service = app.services.generations;
  const decoder = new UploadDecoder(deps.config.uploads, deps.config.shedding.retryAfterSeconds);
  await app.register(multipart, {
    // files: 2 so that a second file is seen (and refused) rather than silently dropped.
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 2, fields: 4, fieldSize: 1024, parts: 6, headerPairs: 50 },
    throwFileSizeLimit: true,
  });
  app.addHook('onRequest', requireUser);

  app.post('/api/images/upload', async (request, reply) => {
    if (!request.isMultipart()) return reply.status(415).send(errorBody(415, 'Send the image as multipart/form-data in the field "image"', 'not_multipart'));
    const parts = await readUpload(request);
    if (parts.oversizedField) return reply.status(413).send(errorBody(413, 'A form field is too long', 'field_too_long'));
    if (parts.files > 1) return reply.status(400).send(errorBody(400, 'Send one image per upload', 'too_many_files'));
    if (!parts.bytes) return reply.status(400).send(errorBody(400, 'Please select a file first', 'no_file'));
    if (parts.bytes.length === 0) return reply.status(400).send(errorBody(400, 'The file is empty', 'empty_file'));
    const name = cleanName(parts.name ?? parts.filename, 'Untitled');
    const claim = idempotencyClaim(request, { name, sha256: createHash('sha256').update(parts.bytes).digest('hex') });
    const held = claim && (await service.idempotencyKeys.find(claim.userId, claim.key));
    if (held) return reply.status(201).send(await toImageDto(deps.store, await heldUpload(request.user.id, held, claim)));
    try {
      const shotSize = shotSizeFor(await service.effectivePlan(request.user.id));
      const row = await storeUpload({ store: deps.store, images: service.images, decoder }, { userId: request.user.id, bytes: parts.bytes, name, shotSize });
      const raced = claim && (await service.idempotencyKeys.claim(claim, { imageId: row.id }));
      if (raced) {
        // The same upload, sent twice at once: keep the first, drop this copy.
        await deleteUpload(row);
        return reply.status(201).send(await toImageDto(deps.store, await heldUpload(request.user.id, raced, claim)));
      }
      await analyse(row).catch((error: unknown) => request.log.warn({ err: error, imageId: row.id }, 'upload analysis not queued; GET /subject will queue it'));
      return reply.status(201).send(await toImageDto(deps.store, row));
    } catch (error) {
      if (error instanceof UploadsBusyError) {
        return reply.status(503).header('Retry-After', String(error.retryAfterSeconds)).send(errorBody(503, error.message, 'overloaded'));
      }
      const mapped = imagingErrorStatus(error);
      if (mapped) return reply.status(mapped.status).send(errorBody(mapped.status, mapped.message, mapped.code));
      throw error;
    }
  });

  app.get<{ Querystring: ListPageQuery }>(
    '/api/images',
    { schema: { querystring: ListPageQuery, response: { 200: ImageListResponse } } },
    async (request): Promise<ImageListResponse> => {
      const page = await service.images.listPage(request.user.id, { limit: request.query.limit ?? IMAGES_PAGE_DEFAULT, after: decodeCursor(request.query.cursor) });
      // An upload still waiting for its analysis gets its renditions there.
      const without = page.items.filter((row) => !row.renditions && row.subject !== null);
      await requestRenditions(deps.producer, request.log, without.map((row) => ({ key: row.storage_key, owner: { kind: 'image', id: row.id } })));
      return { data: await Promise.all(page.items.map((row) => toImageDto(deps.store, row))), nextCursor: encodeCursor(page.next) };
    },
  );

  app.get<{ Querystring: ListPageQuery }>(
    '/api/images/recent/generations',
    { schema: { querystring: ListPageQuery, response: { 200: GenerationListResponse } } },
    async (request): Promise<GenerationListResponse> => {
      const page = await service.generations.outputsPage(request.user.id, { limit: request.query.limit ?? RECENT_GENERATIONS_DEFAULT, after: decodeCursor(request.query.cursor) });
      const without = page.items.filter((output) => !output.renditions);
      await requestRenditions(deps.producer, request.log, without.map((output) => ({ key: output.resultKey, owner: { kind: 'style', id: output.id } })));
      return { data: await Promise.all(page.items.map((output) => service.recentGenerationDto(output))), nextCursor: encodeCursor(page.next) };
    },
  );

  /** Asks a worker to find the upload's product (and make its cutout); once per upload. */
  function analyse(row: ImageRow): Promise<string> {
    return deps.producer.enqueue('analyse-upload', { userId: row.user_id, imageId: row.id, sourceKey: row.storage_key }, { jobId: jobIds.analyseUpload(row.id) });
  }

  // What the cutout model found: the upload screens wait for it before generating, and show the
  // tap step when it asks. An upload nobody has looked at yet (older than this call) is queued now.
  app.get<{ Params: { id: string } }>('/api/images/:id/subject', async (request, reply): Promise<SubjectResponse | undefined> => {
    const row = await service.images.findOwned(request.user.id, request.params.id);
    if (!row) return reply.status(404).send(errorBody(404, 'Image not found', 'image_not_found'));
    if (!row.subject) await analyse(row);
    return { data: subjectDto(row.id, row.subject, row.coach) };
  });

  app.get<{ Params: { id: string } }>('/api/images/:id', async (request, reply) => {
    const row = await service.images.findOwned(request.user.id, request.params.id);
    if (!row) return reply.status(404).send(errorBody(404, 'Image not found', 'image_not_found'));
    return { data: await toImageDto(deps.store, row) };
  });

  /** The upload an Idempotency-Key's first request stored (422 when the key was used for something else). */
  async function heldUpload(userId: string, held: IdempotencyKeyRow, claim: IdempotencyClaim): Promise<ImageRow> {
    const row = await service.images.findOwned(userId, heldTarget(held, claim, 'image'));
    if (!row) throw new HttpError(404, 'Image not found', 'image_not_found');
    return row;
  }

  /** Its generations stay in history (decisions.md); only the upload's own files go. */
  async function deleteUpload(row: ImageRow): Promise<void> {
    await service.images.deleteOwned(row.user_id, row.id);
    await deleteImageFiles(deps.store, row.storage_key);
  }

  app.delete<{ Params: { id: string } }>('/api/images/:id', async (request, reply) => {
    const row = await service.images.findOwned(request.user.id, request.params.id);
    if (!row) return reply.status(404).send(errorBody(404, 'Image not found', 'image_not_found'));
    await deleteUpload(row);
    return { data: { id: row.id, deleted: true } };
  });
}

/** Reads the one file part (field "image") and an optional "name" field, in either order. */
async function readUpload(request: FastifyRequest): Promise<UploadParts> {
  const parts: UploadParts = { files: 0, oversizedField: false, bytes: null, filename: undefined, name: undefined };
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      parts.files += 1;
      if (part.fieldname !== 'image' || parts.files > 1) {
        await part.toBuffer();
        continue;
      }
      parts.bytes = await part.toBuffer();
      parts.filename = part.filename;
    } else if (part.valueTruncated || part.fieldnameTruncated) {
      parts.oversizedField = true;
    } else if (part.fieldname === 'name' && typeof part.value === 'string') {
      parts.name = part.value;
    }
  }
  return parts;
}
