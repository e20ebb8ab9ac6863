import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiErrorBody } from '@prodshot/contracts';
import { STATUS_CODES } from 'node:http';

export function errorBody(statusCode: number, message: string, code?: string): ApiErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(code ? { code } : {}) };
}

/** One error shape for every route; 5xx details stay in the log, never in the answer. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(statusCode).send(errorBody(statusCode, 'Something went wrong on our side. Please try again.'));
    }
    const code = error.validation ? 'invalid_request' : error.code?.toLowerCase();
    return reply.status(statusCode).send(errorBody(statusCode, error.message, code));
  });
}
