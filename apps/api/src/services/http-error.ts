/**
 * A refusal with its status and stable code, answered as is by the error handler (plugins/
 * error-handler.ts) in the common error shape, 5xx included: its message is written for the caller.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
    /** Fields the answer carries beside the common error shape. */
    readonly details: Record<string, unknown> = {},
    /** Headers the answer carries, such as Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
