import { isImagingError, type ImagingError } from '@prodshot/imaging/input';

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

/** An imaging failure as an HTTP status and the seller-readable message the engine wrote. */
export function imagingErrorStatus(error: unknown): { status: number; message: string; code: string } | null {
  if (!isImagingError(error)) return null;
  return { status: STATUS_BY_CODE[error.code], message: error.message, code: error.code };
}
