import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiErrorBody } from '@prodshot/contracts';
import { STATUS_CODES } from 'node:http';
import { HttpError } from '../services/http-error.js';

export function errorBody(statusCode: number, message: string, code?: string): ApiErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(code ? { code } : {}) };
}

export const UNAVAILABLE_MESSAGE = 'Prodshot is briefly unavailable. Please try again in a few seconds.';
const RETRY_AFTER_SECONDS = 5;

const CONNECTION_CODES = new Set([
  'storage_timeout',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const CONNECTION_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Connection is closed|Stream isn't writeable|max retries per request|ECONNREFUSED/i;
/** Redis refusing writes for a while: full (maxmemory), a replica during failover, or still loading its data. */
const REDIS_REFUSALS = /^(OOM command not allowed|READONLY |LOADING )/;

/** A database or Redis that does not answer, or will not write for now: the request may succeed if retried shortly. */
export function isDependencyOutage(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (
    let current = error;
    current && typeof current === 'object' && !seen.has(current);
    current = (current as { cause?: unknown }).cause
  ) {
    seen.add(current);
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (name === 'MaxRetriesPerRequestError') return true;
    if (typeof message === 'string' && (CONNECTION_MESSAGES.test(message) || REDIS_REFUSALS.test(message))) return true;
  }
  return false;
}

/** One error shape for every route; an unexpected failure's details stay in the log, never in the answer. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDependencyOutage(error)) {
      request.log.warn({ err: error }, 'dependency unavailable');
      return reply
        .status(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send(errorBody(503, UNAVAILABLE_MESSAGE, 'service_unavailable'));
    }
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ ...errorBody(error.statusCode, error.message, error.code), ...error.details });
    }
    const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .status(statusCode)
        .send(errorBody(statusCode, 'Something went wrong on our side. Please try again.'));
    }
    const code = error.validation ? 'invalid_request' : error.code?.toLowerCase();
    return reply.status(statusCode).send(errorBody(statusCode, error.message, code));
  });
}
