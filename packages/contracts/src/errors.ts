/**
 * Body of every non-OK API answer (Fastify's error shape). The web client shows `message`,
 * the spec's "error carrying the server's message".
 */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** Stable machine-readable code, e.g. 'not_found', 'insufficient_credits'. */
  code?: string;
}
