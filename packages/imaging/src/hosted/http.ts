import {
  ImagingError,
  ModelAuthError,
  ModelBadResponseError,
  ModelRateLimitedError,
  ModelRejectedError,
  ModelTimeoutError,
  ModelUnavailableError,
} from '../errors.js';

export type FetchLike = typeof fetch;

export interface HttpOptions {
  /** Adapter name used in error messages, e.g. 'openai'. */
  model: string;
  fetch: FetchLike;
  timeoutMs: number;
}

/** Hosted outputs larger than this are refused rather than buffered. */
const MAX_DOWNLOAD_BYTES = 40 * 1024 * 1024;

/** Reads a provider's error text from the usual shapes: {error:{message}}, {detail}, {message}. */
function errorDetail(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (error && typeof error === 'object' && typeof (error as Record<string, unknown>).message === 'string') return (error as { message: string }).message;
  if (typeof error === 'string') return error;
  if (typeof record.detail === 'string') return record.detail;
  if (Array.isArray(record.detail)) return record.detail.map((d) => (d as { msg?: string }).msg ?? JSON.stringify(d)).join('; ');
  if (typeof record.message === 'string') return record.message;
  return undefined;
}

/** Maps an HTTP failure onto a typed error the API can turn into a status code. */
export function errorForStatus(model: string, status: number, body: unknown): ImagingError {
  const detail = errorDetail(body);
  if (status === 401 || status === 403) return new ModelAuthError(model);
  if (status === 429) return new ModelRateLimitedError(model);
  if (status === 408 || status === 504) return new ModelTimeoutError(model, 0);
  if (status >= 500) return new ModelUnavailableError(model, `HTTP ${status}`);
  return new ModelRejectedError(model, detail ?? `HTTP ${status}`);
}

async function withTimeout<T>(options: HttpOptions, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    return await run(controller.signal);
  } catch (error) {
    if (error instanceof ImagingError) throw error;
    if (controller.signal.aborted) throw new ModelTimeoutError(options.model, options.timeoutMs, { cause: error });
    throw new ModelUnavailableError(options.model, 'network error', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Sends a request and parses a JSON answer; any failure becomes a typed ImagingError. */
export function requestJson(options: HttpOptions, url: string, init: RequestInit): Promise<unknown> {
  return withTimeout(options, async (signal) => {
    const response = await options.fetch(url, { ...init, signal });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      if (response.ok) throw new ModelBadResponseError(options.model, 'the answer was not JSON');
    }
    if (!response.ok) throw errorForStatus(options.model, response.status, body);
    return body;
  });
}

/** Downloads a hosted output at once: provider URLs expire within hours. Data URLs are decoded. */
export function download(options: HttpOptions, url: string): Promise<Buffer> {
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    if (comma < 0 || !url.slice(0, comma).endsWith(';base64')) throw new ModelBadResponseError(options.model, 'unreadable data URL');
    return Promise.resolve(Buffer.from(url.slice(comma + 1), 'base64'));
  }
  return withTimeout(options, async (signal) => {
    const response = await options.fetch(url, { signal });
    if (!response.ok) throw errorForStatus(options.model, response.status, null);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_DOWNLOAD_BYTES) throw new ModelBadResponseError(options.model, 'output too large');
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length === 0) throw new ModelBadResponseError(options.model, 'empty output');
    return bytes;
  });
}

export function dataUrl(image: Buffer, mimeType: string): string {
  return `data:${mimeType};base64,${image.toString('base64')}`;
}

/** Reads a string at a path of an untyped JSON answer, or fails with a typed error. */
export function pickString(model: string, body: unknown, path: (string | number)[]): string {
  let node: unknown = body;
  for (const key of path) {
    if (node === null || typeof node !== 'object') break;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (typeof node !== 'string' || node.length === 0) throw new ModelBadResponseError(model, `missing ${path.join('.')}`);
  return node;
}
