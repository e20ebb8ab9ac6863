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
  imagingErrorData,
  unusableFileError,
  isImagingError,
  reviveImagingError,
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

describe('an imaging error as plain data (across a thread)', () => {
  const viaStructuredClone = (error: ImagingError) => reviveImagingError(structuredClone(imagingErrorData(error)));

  it('keeps a provider’s Retry-After, a refusal’s reason and an operator’s problem', () => {
    expect(viaStructuredClone(new ModelRateLimitedError('openai', { retryAfterMs: 7_000 }))).toMatchObject({
      name: 'ModelRateLimitedError',
      code: 'model_rate_limited',
      retryable: true,
      retryAfterMs: 7_000,
    });
    expect(
      viaStructuredClone(new ModelRejectedError('openai', 'content_filter', { providerMessage: 'flagged' })),
    ).toMatchObject({ code: 'model_rejected', reason: 'content_filter', providerMessage: 'flagged', retryable: false });
    expect(viaStructuredClone(new ModelMisconfiguredError('openai', 'quota'))).toMatchObject({
      code: 'model_misconfigured',
      problem: 'quota',
    });
  });

  it('brings a refusal back as an EmptyImageError, with its reason and whether a tap may find the product', () => {
    const unseen = viaStructuredClone(new EmptyImageError('it looks like a bare surface, with no product on it'));
    expect(unseen).toBeInstanceOf(EmptyImageError);
    expect(unseen).toMatchObject({
      reason: 'it looks like a bare surface, with no product on it',
      tapMayFind: true,
      message:
        'This image has nothing to work with: it looks like a bare surface, with no product on it. Please upload a photo of your product.',
    });
    expect(viaStructuredClone(unusableFileError('it is only 20×20 pixels'))).toMatchObject({
      name: 'EmptyImageError',
      reason: 'it is only 20×20 pixels',
      tapMayFind: false,
    });
  });

  it('comes back as an ImagingError with the same message, and no detail it never had', () => {
    const original = new ModelRateLimitedError('openai');
    const revived = viaStructuredClone(original);
    expect(revived).toBeInstanceOf(ImagingError);
    expect(revived.message).toBe(original.message);
    expect(Object.keys(imagingErrorData(new CorruptImageError())).sort()).toEqual(['code', 'message', 'name']);
    expect('retryAfterMs' in revived).toBe(false);
  });
});
