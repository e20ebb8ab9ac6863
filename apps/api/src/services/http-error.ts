import { BUY_CREDITS_URL, INSUFFICIENT_CREDITS_CODE, insufficientCreditsMessage } from '@prodshot/contracts';

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

/** 402 for paid work the seller's credits do not cover: the shortfall, and where to buy credits. */
export class InsufficientCreditsHttpError extends HttpError {
  constructor(needed: number, available: number, message = insufficientCreditsMessage(needed, available)) {
    super(402, message, INSUFFICIENT_CREDITS_CODE, {
      needed,
      available,
      shortfall: needed - available,
      buyCreditsUrl: BUY_CREDITS_URL,
    });
  }
}
