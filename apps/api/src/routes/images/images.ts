import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DeleteImageResponse,
  errorResponses,
  GenerationListResponse,
  IdParams,
  ImageDto,
  ImageListResponse,
  ImageResponse,
  ListPageQuery,
  SubjectResponse,
  UPLOAD_MAX_BYTES,
} from '@prodshot/contracts';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../services/http-error.js';
import { idempotencyClaim } from '../../services/idempotency.js';
import { cleanName } from '../../services/upload-service.js';

interface UploadParts {
  files: number;
  /** A text field longer than the limit: refused rather than silently cut. */
  oversizedField: boolean;
  bytes: Buffer | null;
  filename: string | undefined;
  name: string | undefined;
}

/** Uploads and the user's own image list. Every id is looked up within the caller's images only. */
export async function imageRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const images = app.services.images;
  await app.register(multipart, {
    // files: 2 so that a second file is seen (and refused) rather than silently dropped.
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 2, fields: 4, fieldSize: 1024, parts: 6, headerPairs: 50 },
    throwFileSizeLimit: true,
  });
  app.addHook('onRequest', requireUser);

  app.post(
    '/api/images/upload',
    {
      schema: {
        summary: 'Upload a product photo (multipart/form-data: the file in "image", an optional "name")',
        response: { 201: ImageDto, ...errorResponses([400, 413, 415, 422, 429, 502, 503, 504]) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, 'Send the image as multipart/form-data in the field "image"', 'not_multipart');
      const parts = await readUpload(request);
      if (parts.oversizedField) throw new HttpError(413, 'A form field is too long', 'field_too_long');
      if (parts.files > 1) throw new HttpError(400, 'Send one image per upload', 'too_many_files');
      if (!parts.bytes) throw new HttpError(400, 'Please select a file first', 'no_file');
      if (parts.bytes.length === 0) throw new HttpError(400, 'The file is empty', 'empty_file');
      const name = cleanName(parts.name ?? parts.filename, 'Untitled');
      const claim = idempotencyClaim(request, { name, sha256: createHash('sha256').update(parts.bytes).digest('hex') });
      return reply.status(201).send(await images.upload(request.user.id, { bytes: parts.bytes, name }, claim, request.log));
    },
  );

  app.get(
    '/api/images',
    { schema: { querystring: ListPageQuery, response: { 200: ImageListResponse, ...errorResponses([400]) } } },
    (request) => images.list(request.user.id, request.query, request.log),
  );

  app.get(
    '/api/images/recent/generations',
    { schema: { querystring: ListPageQuery, response: { 200: GenerationListResponse, ...errorResponses([400]) } } },
    (request) => app.services.generations.recentOutputs(request.user.id, request.query, request.log),
  );

  // What the cutout model found: the upload screens wait for it before generating, and show the
  // tap step when it asks.
  app.get(
    '/api/images/:id/subject',
    { schema: { params: IdParams, response: { 200: SubjectResponse, ...errorResponses([404]) } } },
    async (request) => ({ data: await images.subject(request.user.id, request.params.id) }),
  );

  app.get(
    '/api/images/:id',
    { schema: { params: IdParams, response: { 200: ImageResponse, ...errorResponses([404]) } } },
    async (request) => ({ data: await images.image(request.user.id, request.params.id) }),
  );

  app.delete(
    '/api/images/:id',
    { schema: { params: IdParams, response: { 200: DeleteImageResponse, ...errorResponses([404]) } } },
    async (request) => ({ data: await images.delete(request.user.id, request.params.id) }),
  );
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
