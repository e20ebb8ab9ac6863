// Over 250 lines: the catalogue of imaging errors: one small class per code, and their crossing between
// threads.
/**
 * Typed imaging errors. Every failure the engine or an adapter can report carries a stable
 * `code` (the API maps codes to HTTP statuses) and a message a seller can read as-is.
 */
export type ImagingErrorCode =
  | 'unsupported_format'
  | 'image_too_large'
  | 'corrupt_image'
  | 'empty_image'
  | 'invalid_request'
  | 'model_timeout'
  | 'model_unavailable'
  | 'model_rejected'
  | 'model_auth_failed'
  | 'model_misconfigured'
  | 'model_rate_limited'
  | 'model_bad_response'
  | 'model_failed';

/** Whether a caller may retry the same request later (used by the worker's retry policy). */
const RETRYABLE: ReadonlySet<ImagingErrorCode> = new Set<ImagingErrorCode>([
  'model_timeout',
  'model_unavailable',
  'model_rate_limited',
]);

export class ImagingError extends Error {
  readonly code: ImagingErrorCode;
  readonly retryable: boolean;

  constructor(code: ImagingErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImagingError';
    this.code = code;
    this.retryable = RETRYABLE.has(code);
  }
}

export class UnsupportedFormatError extends ImagingError {
  constructor(detail?: string, options?: { cause?: unknown }) {
    super(
      'unsupported_format',
      `This file type is not supported${detail ? ` (${detail})` : ''}. Please upload a JPEG, PNG, WebP, GIF, AVIF or HEIC image.`,
      options,
    );
    this.name = 'UnsupportedFormatError';
  }
}

export class ImageTooLargeError extends ImagingError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('image_too_large', `This image is too large to process (${detail}). Please upload a smaller image.`, options);
    this.name = 'ImageTooLargeError';
  }
}

export class CorruptImageError extends ImagingError {
  constructor(options?: { cause?: unknown }) {
    super(
      'corrupt_image',
      'This image file is damaged or incomplete and cannot be read. Please upload it again.',
      options,
    );
    this.name = 'CorruptImageError';
  }
}

export class EmptyImageError extends ImagingError {
  /** Why there is nothing to work with, in a seller's words (the coach repeats it). */
  readonly reason: string;
  /**
   * Whether the seller's tap on their product may still find it: the engine saw no product in a
   * photo it could read. Not for a file that is empty, tiny or fully transparent.
   */
  readonly tapMayFind: boolean;

  constructor(reason = 'no product could be found in it', options?: { cause?: unknown; tapMayFind?: boolean }) {
    super(
      'empty_image',
      `This image has nothing to work with: ${reason}. Please upload a photo of your product.`,
      options,
    );
    this.name = 'EmptyImageError';
    this.reason = reason;
    this.tapMayFind = options?.tapMayFind ?? true;
  }
}

/** The refusal of a file with nothing in it to tap: empty, tiny or fully transparent. */
export function unusableFileError(reason: string): EmptyImageError {
  return new EmptyImageError(reason, { tapMayFind: false });
}

export class InvalidRequestError extends ImagingError {
  constructor(message: string) {
    super('invalid_request', message);
    this.name = 'InvalidRequestError';
  }
}

export class ModelTimeoutError extends ImagingError {
  constructor(model: string, ms: number, options?: { cause?: unknown }) {
    super(
      'model_timeout',
      `The image model (${model}) did not answer within ${Math.round(ms / 1000)} s. Please try again.`,
      options,
    );
    this.name = 'ModelTimeoutError';
  }
}

export class ModelUnavailableError extends ImagingError {
  constructor(model: string, detail?: string, options?: { cause?: unknown }) {
    super(
      'model_unavailable',
      `The image model (${model}) is unavailable right now${detail ? ` (${detail})` : ''}. Please try again later.`,
      options,
    );
    this.name = 'ModelUnavailableError';
  }
}

/** Why a provider declined: its own refusal, its content filter or policy, or an answer cut short. */
export type RefusalReason = 'refusal' | 'content_filter' | 'content_policy' | 'length';

/** Our own words for each refusal: a provider's text is for logs, never shown to sellers as-is. */
const REFUSAL_MESSAGES: Record<RefusalReason, string> = {
  refusal: 'declined this request. Please try another photo or a different description',
  content_filter: 'declined this request under its content rules. Please try another photo or a different description',
  content_policy: 'declined this request under its content rules. Please try another photo or a different description',
  length: 'could not finish its answer to this request. Please try a shorter description',
};

/** The provider declined the seller's request: a seller's message, not an operator's. */
export class ModelRejectedError extends ImagingError {
  readonly reason: RefusalReason;
  /** The provider's own text, for logs only. */
  readonly providerMessage: string | undefined;

  constructor(model: string, reason: RefusalReason, options?: { cause?: unknown; providerMessage?: string }) {
    super('model_rejected', `The image model (${model}) ${REFUSAL_MESSAGES[reason]}.`, options);
    this.name = 'ModelRejectedError';
    this.reason = reason;
    this.providerMessage = options?.providerMessage;
  }
}

export class ModelAuthError extends ImagingError {
  constructor(model: string, options?: { cause?: unknown }) {
    super(
      'model_auth_failed',
      `The image model (${model}) rejected our credentials. The service operator must check its API key.`,
      options,
    );
    this.name = 'ModelAuthError';
  }
}

/** What an operator must fix: the account's quota, a model name that does not exist, or a request we built wrong. */
export type MisconfigurationProblem = 'quota' | 'model' | 'request';

/**
 * The provider refused the service's own set-up, not the seller's request: retrying cannot help,
 * and sellers only learn that the operator must act.
 */
export class ModelMisconfiguredError extends ImagingError {
  readonly problem: MisconfigurationProblem;
  /** The provider's own text, for the operator's logs. */
  readonly providerMessage: string | undefined;

  constructor(
    model: string,
    problem: MisconfigurationProblem,
    options?: { cause?: unknown; providerMessage?: string },
  ) {
    super(
      'model_misconfigured',
      `The image model (${model}) is not set up correctly for this service. The service operator has been alerted; please try again later.`,
      options,
    );
    this.name = 'ModelMisconfiguredError';
    this.problem = problem;
    this.providerMessage = options?.providerMessage;
  }
}

export class ModelRateLimitedError extends ImagingError {
  /** How long the provider asked us to wait (its Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(model: string, options?: { cause?: unknown; retryAfterMs?: number }) {
    const wait =
      options?.retryAfterMs === undefined
        ? 'in a minute'
        : `in ${Math.max(1, Math.ceil(options.retryAfterMs / 1000))} s`;
    super('model_rate_limited', `The image model (${model}) is busy. Please try again ${wait}.`, options);
    this.name = 'ModelRateLimitedError';
    this.retryAfterMs = options?.retryAfterMs;
  }
}

export class ModelBadResponseError extends ImagingError {
  constructor(model: string, detail: string, options?: { cause?: unknown }) {
    super(
      'model_bad_response',
      `The image model (${model}) sent an answer we could not use (${detail}). Please try again.`,
      options,
    );
    this.name = 'ModelBadResponseError';
  }
}

/** The on-device model could not run on this photo (damaged weights, out of memory). */
export class ModelFailedError extends ImagingError {
  constructor(model: string, detail: string, options?: { cause?: unknown }) {
    super('model_failed', `The ${model} could not process this photo (${detail}). Please try again later.`, options);
    this.name = 'ModelFailedError';
  }
}

export function isImagingError(value: unknown): value is ImagingError {
  return value instanceof ImagingError;
}

/** What a typed error carries beyond its code and message: a provider's wait, a refusal's reason, an operator's problem. */
export interface ImagingErrorDetails {
  retryAfterMs?: number;
  /** A model's refusal, or why an image has nothing to work with. */
  reason?: string;
  tapMayFind?: boolean;
  problem?: MisconfigurationProblem;
  providerMessage?: string;
}

/** An imaging error as plain data, so it can cross a thread: structured cloning keeps no class and no own fields of an Error. */
export interface ImagingErrorData extends ImagingErrorDetails {
  name: string;
  code: ImagingErrorCode;
  message: string;
}

const DETAIL_KEYS = [
  'retryAfterMs',
  'reason',
  'tapMayFind',
  'problem',
  'providerMessage',
] as const satisfies readonly (keyof ImagingErrorDetails)[];

export function imagingErrorData(error: ImagingError): ImagingErrorData {
  const carried: ImagingError & ImagingErrorDetails = error;
  const details = Object.fromEntries(
    DETAIL_KEYS.filter((key) => carried[key] !== undefined).map((key) => [key, carried[key]]),
  );
  return { name: error.name, code: error.code, message: error.message, ...details };
}

/**
 * The error again on the caller's side, with its details as own fields: the worker's retry policy
 * reads `retryAfterMs`, and its logs show the reason or problem, whichever thread threw.
 */
export function reviveImagingError({
  name,
  code,
  message,
  ...details
}: ImagingErrorData): ImagingError & ImagingErrorDetails {
  // A refusal comes back as its own class (its reason and tapMayFind among the details): the worker
  // tells the seller why, and whether a tap may help.
  const error: ImagingError & ImagingErrorDetails =
    code === 'empty_image' ? new EmptyImageError(details.reason) : new ImagingError(code, message);
  error.name = name;
  error.message = message;
  return Object.assign(error, details);
}
