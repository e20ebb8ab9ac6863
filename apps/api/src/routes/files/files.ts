import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, SignedLinkQuery } from '@prodshot/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fresh from 'fresh';
import Type from 'typebox';
import { assertSafeKey, FILES_ROUTE_PREFIX, InvalidKeyError, verifySignature } from '@prodshot/storage';
import type { AppDeps } from '../../deps.js';
import { HttpError } from '../../services/http-error.js';

const FileParams = Type.Object({ '*': Type.String() });

const fileSchema = {
  params: FileParams,
  querystring: SignedLinkQuery,
  response: {
    200: { description: 'The stored image', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
    304: { description: 'The copy the browser holds (same ETag) is still this file', type: 'null' },
    ...errorResponses([400, 403, 404]),
  },
} as const;

/**
 * Serves objects of the filesystem store behind the signed, expiring URLs it hands out. Only
 * images we re-encoded are stored, and they go out with nosniff so nothing is read as script.
 */
export async function fileRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const secret = deps.fileSigningSecret;
  if (deps.store.driver !== 'fs' || !secret) return;

  app.get(`${FILES_ROUTE_PREFIX}*`, { schema: fileSchema }, async (request, reply) => {
    const key = request.params['*'];
    try {
      assertSafeKey(key);
    } catch (error) {
      if (error instanceof InvalidKeyError) throw new HttpError(400, 'Invalid file path', 'invalid_key');
      throw error;
    }
    const expires = Number(request.query.expires);
    const verdict = verifySignature(secret, key, expires, request.query.signature ?? '');
    if (verdict === 'expired') throw new HttpError(403, 'This link has expired', 'link_expired');
    if (verdict === 'invalid') throw new HttpError(403, 'Invalid or missing signature', 'invalid_signature');

    const object = await deps.store.stat(key);
    if (!object) throw new HttpError(404, 'File not found', 'not_found');
    // A link names one file until it expires (signing windows keep it the same through the
    // window), so the browser may keep the file that long without asking again.
    const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
    reply
      .header('Cache-Control', `private, max-age=${maxAge}, immutable`)
      .header('ETag', object.etag)
      .header('X-Content-Type-Options', 'nosniff');
    if (fresh(request.headers, { etag: object.etag })) return notModified(reply);
    const { stream } = await deps.store.getStream(key);
    return reply
      .header('Content-Type', object.contentType)
      .header('Content-Length', object.size)
      .header('Content-Disposition', 'inline')
      .send(stream);
  });
}

/**
 * 304 carries no body at all, not the `null` its schema documents: sending null would serialize it
 * with a JSON content type. The untyped reply lets send() go without a payload.
 */
function notModified(reply: FastifyReply): FastifyReply {
  return reply.status(304).send();
}
