/** A refusal with its status and stable code, answered as is by the error handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
    /** Fields the answer carries beside the common error shape. */
    readonly details: Record<string, unknown> = {},
    /** Headers the answer carries, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * A 5xx the seller can act on (the model failed, the wait ran out, uploads are busy): answered
 * with its own message and code, where any other server error gets the generic one.
 */
export class ExplainedServerError extends HttpError {}
