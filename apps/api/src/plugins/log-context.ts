import type { FastifyReply, FastifyRequest } from 'fastify';

export interface LogContext {
  userId?: string;
  /** The API key a request came with (its id, never the key). */
  apiKeyId?: string;
  generationId?: string;
  jobId?: string;
  batchId?: string;
}

/**
 * Adds ids to every later log line of this request, the "request completed" line included, so
 * one search for a generation id finds the request that started it and the worker lines that
 * ran it (the worker logs the same `generationId` and `jobId` keys).
 */
export function bindLogContext(request: FastifyRequest, reply: FastifyReply, context: LogContext): void {
  const child = request.log.child(context);
  request.log = child;
  reply.log = child;
}
