import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import {
  ImagingError,
  ModelAuthError,
  ModelBadResponseError,
  ModelRateLimitedError,
  ModelTimeoutError,
  ModelUnavailableError,
} from '../errors.js';

export type FetchLike = typeof fetch;

/** What a provider answered when it did not answer 2xx. */
export interface HttpFailure {
  status: number;
  body: unknown;
  /** The provider's Retry-After, when it sent one. */
  retryAfterMs: number | undefined;
}

export interface HttpOptions {
  /** Adapter name used in error messages, e.g. 'openai'. */
  model: string;
  fetch: FetchLike;
  /** The whole call's budget, waits on Retry-After included. */
  timeoutMs: number;
  /** Reads a provider's error answer into one of our typed errors. */
  classify: (failure: HttpFailure) => ImagingError;
}

/** JSON answers (a base64 image among them) larger than this are refused rather than buffered. */
const MAX_JSON_BYTES = 48 * 1024 * 1024;
/** Hosted outputs larger than this are refused rather than buffered. */
export const MAX_DOWNLOAD_BYTES = 40 * 1024 * 1024;
/** The largest result we decode: the largest shot we ask for is 4096². */
export const MAX_RESULT_PIXELS = 4096 * 4096;
const DECODE_TIMEOUT_SECONDS = 20;
const RESULT_FORMATS: ReadonlySet<string> = new Set(['png', 'jpeg', 'webp']);
/** Waits a provider asks for that one call obeys; past them the worker's own retries take over. */
const RATE_LIMIT_WAITS = 2;

/** The errors every provider signals the same way: credentials, rate, time-outs and outages. */
export function statusError(model: string, { status, retryAfterMs }: HttpFailure): ImagingError | null {
  if (status === 401 || status === 403) return new ModelAuthError(model);
  if (status === 429) return new ModelRateLimitedError(model, retryAfterMs === undefined ? {} : { retryAfterMs });
  if (status === 408 || status === 504) return new ModelTimeoutError(model, 0);
  if (status >= 500) return new ModelUnavailableError(model, `HTTP ${status}`);
  return null;
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function withDeadline<T>(
  options: HttpOptions,
  deadline: number,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
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

/** Reads a body chunk by chunk and stops at `cap` bytes, whatever Content-Length claimed. */
async function readCapped(model: string, response: Response, cap: number): Promise<Buffer> {
  if (Number(response.headers.get('content-length') ?? 0) > cap) {
    await response.body?.cancel();
    throw new ModelBadResponseError(model, 'the answer is too large');
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop early cancels the stream, so an oversized body is never read to its end.
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > cap) throw new ModelBadResponseError(model, 'the answer is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

async function attemptJson(
  options: HttpOptions,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<unknown> {
  const response = await options.fetch(url, { ...init, signal, redirect: 'error' });
  const text = (await readCapped(options.model, response, MAX_JSON_BYTES)).toString('utf8');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    if (response.ok) throw new ModelBadResponseError(options.model, 'the answer was not JSON');
  }
  if (!response.ok)
    throw options.classify({
      status: response.status,
      body,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    });
  return body;
}

/**
 * Sends a request and parses a JSON answer; any failure becomes a typed ImagingError. A 429 with
 * Retry-After is waited out and sent again while the wait fits in the call's budget.
 */
export async function requestJson(options: HttpOptions, url: string, init: RequestInit): Promise<unknown> {
  const deadline = Date.now() + options.timeoutMs;
  for (let waits = 0; ; waits++) {
    try {
      return await withDeadline(options, deadline, (signal) => attemptJson(options, url, init, signal));
    } catch (error) {
      const wait = error instanceof ModelRateLimitedError ? error.retryAfterMs : undefined;
      if (wait === undefined || waits >= RATE_LIMIT_WAITS || Date.now() + wait >= deadline) throw error;
      await delay(wait);
    }
  }
}

/**
 * Where a URL may lead: the configured base URL's origin, whatever its scheme (the operator chose
 * it), and https hosts by name, where '*.example.com' stands for its subdomains.
 */
export interface HostAllowlist {
  origins: readonly string[];
  hosts: readonly string[];
}

function hostMatches(hostname: string, pattern: string): boolean {
  return pattern.startsWith('*.') ? hostname.endsWith(pattern.slice(1)) : hostname === pattern;
}

export function isAllowed(url: string, allow: HostAllowlist): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (allow.origins.includes(parsed.origin)) return true;
  return parsed.protocol === 'https:' && allow.hosts.some((pattern) => hostMatches(parsed.hostname, pattern));
}

function decodeDataUrl(model: string, url: string): Buffer {
  const comma = url.indexOf(',');
  if (comma < 0 || !url.slice(0, comma).endsWith(';base64'))
    throw new ModelBadResponseError(model, 'unreadable data URL');
  if ((url.length - comma - 1) * 0.75 > MAX_DOWNLOAD_BYTES)
    throw new ModelBadResponseError(model, 'the answer is too large');
  return Buffer.from(url.slice(comma + 1), 'base64');
}

/**
 * Downloads a hosted output at once (provider URLs expire within hours), only from allowed hosts,
 * never following a redirect, never past MAX_DOWNLOAD_BYTES, and never with our credentials.
 */
export function download(options: HttpOptions, url: string, allow: HostAllowlist): Promise<Buffer> {
  if (url.startsWith('data:')) return Promise.resolve(decodeDataUrl(options.model, url));
  if (!isAllowed(url, allow))
    return Promise.reject(new ModelBadResponseError(options.model, 'the result is on a host we do not fetch from'));
  return withDeadline(options, Date.now() + options.timeoutMs, async (signal) => {
    const response = await options.fetch(url, { signal, redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel();
      throw (
        statusError(options.model, { status: response.status, body: null, retryAfterMs: undefined }) ??
        new ModelBadResponseError(options.model, `the result answered HTTP ${response.status}`)
      );
    }
    const bytes = await readCapped(options.model, response, MAX_DOWNLOAD_BYTES);
    if (bytes.length === 0) throw new ModelBadResponseError(options.model, 'empty output');
    return bytes;
  });
}

/**
 * Decodes a provider's image through `build`, within bounds: PNG, JPEG or WebP only, at most
 * MAX_RESULT_PIXELS, and a time limit, so a hostile answer cannot hold a worker.
 */
export async function decodeResult(
  model: string,
  bytes: Buffer,
  build: (image: Sharp) => Sharp,
  timeoutSeconds = DECODE_TIMEOUT_SECONDS,
): Promise<Buffer> {
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_RESULT_PIXELS });
    const { format } = await image.metadata();
    if (!format || !RESULT_FORMATS.has(format))
      throw new ModelBadResponseError(model, `a ${format ?? 'unknown'} image, not PNG, JPEG or WebP`);
    return await build(image).timeout({ seconds: timeoutSeconds }).toBuffer();
  } catch (error) {
    if (error instanceof ImagingError) throw error;
    throw new ModelBadResponseError(model, 'the image could not be decoded', { cause: error });
  }
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
  if (typeof node !== 'string' || node.length === 0)
    throw new ModelBadResponseError(model, `missing ${path.join('.')}`);
  return node;
}
