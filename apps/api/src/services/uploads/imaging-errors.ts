import { isImagingError, type ImagingError } from '@prodshot/imaging/input';
import { HttpError } from '../http-error.js';

const STATUS_BY_CODE: Record<ImagingError['code'], number> = {
  unsupported_format: 415,
  image_too_large: 413,
  corrupt_image: 422,
  empty_image: 422,
  invalid_request: 400,
  model_timeout: 504,
  model_unavailable: 503,
  model_rejected: 422,
  model_auth_failed: 502,
  model_misconfigured: 502,
  model_rate_limited: 503,
  model_bad_response: 502,
  model_failed: 503,
};

/** An imaging failure as an HTTP error with the seller-readable message the engine wrote; null for any other error. */
export function imagingHttpError(error: unknown): HttpError | null {
  if (!isImagingError(error)) return null;
  return new HttpError(STATUS_BY_CODE[error.code], error.message, error.code);
}
