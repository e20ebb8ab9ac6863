import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { stringify } from 'safe-stable-stringify';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@prodshot/contracts';
import type { IdempotencyClaim } from '@prodshot/db';
import { HttpError } from '../services/http-error.js';

/**
 * The request's Idempotency-Key, or undefined without one; anything but one value of 1 to
 * IDEMPOTENCY_KEY_MAX_LENGTH characters is refused (400), whichever call it comes with.
 */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (Array.isArray(header) || !header || header.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new HttpError(
      400,
      `Idempotency-Key must be one value of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      'invalid_idempotency_key',
    );
  }
  return header;
}

/**
 * The caller's claim on its Idempotency-Key for this request, or undefined without one. The
 * request is identified by its route, path parameters and body (key order aside), or by the
 * uploaded bytes.
 */
export function idempotencyClaim(
  request: FastifyRequest,
  what: unknown = { params: request.params, body: request.body },
): IdempotencyClaim | undefined {
  const key = idempotencyKey(request);
  if (key === undefined) return undefined;
  const requestHash = createHash('sha256')
    .update(stringify({ route: `${request.method} ${request.routeOptions.url}`, what }) ?? '')
    .digest('hex');
  return { userId: request.user.id, key, requestHash };
}
