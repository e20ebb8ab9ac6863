import { describe, expect, it } from 'vitest';
import {
  CorruptImageError,
  EmptyImageError,
  ImageTooLargeError,
  ImagingError,
  InvalidRequestError,
  ModelAuthError,
  ModelBadResponseError,
  ModelMisconfiguredError,
  ModelRateLimitedError,
  ModelRejectedError,
  ModelTimeoutError,
  ModelUnavailableError,
  UnsupportedFormatError,
  isImagingError,
} from './errors.js';

describe('typed errors', () => {
  const cases: [ImagingError, string, boolean][] = [
    [new UnsupportedFormatError('SVG'), 'unsupported_format', false],
    [new ImageTooLargeError('64250×64250 pixels'), 'image_too_large', false],
    [new CorruptImageError(), 'corrupt_image', false],
    [new EmptyImageError(), 'empty_image', false],
    [new InvalidRequestError('bad size'), 'invalid_request', false],
    [new ModelTimeoutError('openai', 30_000), 'model_timeout', true],
    [new ModelUnavailableError('fal'), 'model_unavailable', true],
    [new ModelRejectedError('openai', 'content_policy'), 'model_rejected', false],
    [new ModelMisconfiguredError('openai', 'quota'), 'model_misconfigured', false],
    [new ModelAuthError('fal'), 'model_auth_failed', false],
    [new ModelRateLimitedError('openai'), 'model_rate_limited', true],
    [new ModelBadResponseError('fal', 'missing images'), 'model_bad_response', false],
  ];

  it.each(cases)('%s has a stable code, a readable message and a retry hint', (error, code, retryable) => {
    expect(error).toBeInstanceOf(ImagingError);
    expect(error).toBeInstanceOf(Error);
    expect(isImagingError(error)).toBe(true);
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(retryable);
    expect(error.message).toMatch(/^[A-Z].*\.$|[a-z)]$/);
    expect(error.message).not.toMatch(/vips|undefined|\[object/i);
  });

  it('keeps the low-level cause for logs without showing it to sellers', () => {
    const cause = new Error('VipsJpeg: premature end of JPEG image');
    const error = new CorruptImageError({ cause });
    expect(error.cause).toBe(cause);
    expect(error.message).not.toContain('Vips');
  });
});
