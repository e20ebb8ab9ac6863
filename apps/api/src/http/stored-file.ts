import type { FastifyReply } from 'fastify';
import { ObjectNotFoundError, type ObjectStore } from '@prodshot/storage';
import { HttpError } from '../services/http-error.js';

/** How a route answering a stored file documents its 200: the image's bytes, named for saving. */
export const STORED_FILE_RESPONSE = {
  description: 'The stored image, sent as an attachment (Content-Disposition) or inline',
  content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
};

/**
 * Sends a stored object through the API to a caller it has authenticated: the answer comes from
 * the app's own origin, so a browser reads it with the bearer token and no storage CORS. Only
 * images we re-encoded are stored; nosniff keeps them from being read as anything else.
 * `disposition` is 'inline', or the name a download is saved under.
 */
export async function sendStoredFile(
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  disposition: { attachment: string } | 'inline',
): Promise<FastifyReply> {
  try {
    const { stream, contentType, size } = await store.getStream(key);
    return reply
      .header('Content-Type', contentType)
      .header('Content-Length', size)
      .header('Content-Disposition', disposition === 'inline' ? 'inline' : attachment(disposition.attachment))
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(stream);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw new HttpError(404, 'File not found', 'not_found');
    throw error;
  }
}

/** RFC 6266: an ASCII name for every client, and the exact one (RFC 5987) for those that read it. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
