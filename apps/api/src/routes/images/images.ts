import multipart, { type MultipartFile } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  DeleteImageResponse,
  errorResponses,
  IdParams,
  ImageDto,
  ImageListResponse,
  ImageResponse,
  InsufficientCreditsErrorBody,
  ListPageQuery,
  OutlineRequest,
  SubjectResponse,
  UPLOAD_MAX_BYTES,
  UploadForm,
} from '@prodshot/contracts';
import { HttpError } from '../../services/http-error.js';
import { idempotencyClaim } from '../../http/idempotency-key.js';
import { cleanName, type ReceivedUpload } from '../../services/uploads/upload-intake.js';

interface UploadParts {
  files: number;
  /** A text field longer than the limit: refused rather than silently cut. */
  oversizedField: boolean;
  /** The file, holding a decoder place until the answer is sent. */
  file: ReceivedUpload | null;
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

  app.post(
    '/api/images/upload',
    {
      config: { documentedMultipartBody: UploadForm, acceptsIdempotencyKey: true },
      schema: {
        summary: 'Upload a product photo (multipart/form-data: the file in "image", an optional "name")',
        response: { 201: ImageDto, ...errorResponses([400, 413, 415, 422, 429, 502, 503, 504]) },
      },
      onResponse: discardUnreadBody,
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new HttpError(415, 'Send the image as multipart/form-data in the field "image"', 'not_multipart');
      const parts = await readUpload(
        request,
        (file) => images.receive(file),
        app.multipartErrors.RequestFileTooLargeError,
      );
      const { file } = parts;
      try {
        if (parts.oversizedField) throw new HttpError(413, 'A form field is too long', 'field_too_long');
        if (parts.files > 1) throw new HttpError(400, 'Send one image per upload', 'too_many_files');
        if (!file) throw new HttpError(400, 'Please select a file first', 'no_file');
        if (file.bytes.length === 0) throw new HttpError(400, 'The file is empty', 'empty_file');
        const name = cleanName(parts.name ?? parts.filename, 'Untitled');
        const claim = idempotencyClaim(request, { name, sha256: file.sha256 });
        return reply.status(201).send(await images.upload(request.user.id, { file, name }, claim, request.log));
      } finally {
        file?.release();
      }
    },
  );

  app.get(
    '/api/images',
    { schema: { querystring: ListPageQuery, response: { 200: ImageListResponse, ...errorResponses([400]) } } },
    (request) => images.list(request.user.id, request.query, request.log),
  );

  // What the cutout model found: the upload screens wait for it before generating, and show the
  // tap step when it asks. 402 for an upload an account with nothing has no free analysis left for.
  app.get(
    '/api/images/:id/subject',
    {
      schema: {
        params: IdParams,
        response: { 200: SubjectResponse, ...errorResponses([402, 404], { 402: InsufficientCreditsErrorBody }) },
      },
    },
    async (request) => ({ data: await images.subject(request.user.id, request.params.id) }),
  );

  // The outline the seller checks before paying: again for their tap, or confirmed as it is. Both free.
  app.post(
    '/api/images/:id/outline',
    {
      schema: {
        params: IdParams,
        body: OutlineRequest,
        response: { 200: SubjectResponse, ...errorResponses([400, 404, 409, 422, 429, 502, 504]) },
      },
    },
    async (request) => ({ data: await images.remakeOutline(request.user.id, request.params.id, request.body?.focus) }),
  );

  app.post(
    '/api/images/:id/outline/confirm',
    { schema: { params: IdParams, response: { 200: SubjectResponse, ...errorResponses([404, 409, 429]) } } },
    async (request) => ({ data: await images.confirmOutline(request.user.id, request.params.id) }),
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

/**
 * An upload refused before its body was read (503, 415, 413) stops reading the request there, and
 * a client still sending would stall on a connection nobody reads. Once the answer is out, the
 * rest is read to nowhere: no memory held, the client finishes its send, the connection is freed.
 */
function discardUnreadBody(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  if (!request.raw.readableEnded) {
    request.raw.unpipe();
    request.raw.resume();
  }
  done();
}

/**
 * Reads the one file part (field "image") and an optional "name" field, in either order. The file
 * is handed to `receive` as it arrives, so it takes its decoder place (or is refused) before its
 * body is read; any other file is read to nowhere. A failure part-way gives the place back.
 */
async function readUpload(
  request: FastifyRequest,
  receive: (file: AsyncIterable<Buffer>) => Promise<ReceivedUpload>,
  TooLarge: new () => Error,
): Promise<UploadParts> {
  const parts: UploadParts = { files: 0, oversizedField: false, file: null, filename: undefined, name: undefined };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        parts.files += 1;
        if (part.fieldname !== 'image' || parts.files > 1) {
          for await (const _chunk of fileChunks(part, TooLarge));
          continue;
        }
        parts.file = await receive(fileChunks(part, TooLarge));
        parts.filename = part.filename;
      } else if (part.valueTruncated || part.fieldnameTruncated) {
        parts.oversizedField = true;
      } else if (part.fieldname === 'name' && typeof part.value === 'string') {
        parts.name = part.value;
      }
    }
  } catch (error) {
    parts.file?.release();
    throw error;
  }
  return parts;
}

/**
 * A file part's bytes as they arrive; past UPLOAD_MAX_BYTES busboy cuts the part short and flags
 * it, and that is multipart's own 413 (as `toBuffer` with throwFileSizeLimit answers it).
 */
async function* fileChunks(part: MultipartFile, TooLarge: new () => Error): AsyncGenerator<Buffer> {
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    if (part.file.truncated) throw new TooLarge();
    yield chunk;
  }
  if (part.file.truncated) throw new TooLarge();
}
