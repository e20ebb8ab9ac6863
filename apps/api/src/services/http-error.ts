/** A refusal with its status and stable code, answered as is by the error handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
    /** Fields the answer carries beside the common error shape. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
