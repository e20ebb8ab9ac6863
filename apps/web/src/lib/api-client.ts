import {
  IDEMPOTENCY_KEY_HEADER,
  type ApiErrorBody,
  type InsufficientCreditsErrorBody,
  type PlanRequiredErrorBody,
} from '@prodshot/contracts';

/** A non-OK answer: carries the server's message (docs/product-spec.md §7), or else the status text. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    /** Where a refusal for want of a plan sends the seller (403 plan_required). */
    readonly upgradeUrl?: string,
    /** Where a refusal for want of credits sends the seller (402 insufficient_credits). */
    readonly buyCreditsUrl?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type TokenSource = () => Promise<string | null> | string | null;
let tokenSource: TokenSource = () => null;

/** The auth layer decides where tokens come from (Clerk or the embedded sign-in); the client only asks. */
export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

export async function currentToken(): Promise<string | null> {
  return tokenSource();
}

/** fetch itself failed: no answer came back at all (offline, DNS, a dropped connection). */
export class NoResponseError extends Error {
  constructor(options: ErrorOptions) {
    super('No response received from the server', options);
    this.name = 'NoResponseError';
  }
}

/** What a non-OK answer without a server message reads as: docs/product-spec.md §7's status text, or §8's 'Server error: {status}' for the payment helpers. */
type StatusMessage = 'status-text' | 'server-error';

export interface RequestOptions {
  /** null for the calls made before anyone is signed in; absent, the current session's token. */
  token?: string | null;
  headers?: Record<string, string>;
  statusMessage?: StatusMessage;
}

/** One authenticated call: the answer when it is OK, else an ApiError carrying the server's message. */
async function send(
  method: string,
  url: string,
  body: unknown,
  { token, headers: extra, statusMessage = 'status-text' }: RequestOptions,
): Promise<Response> {
  const headers: Record<string, string> = { ...extra };
  const bearer = token === undefined ? await tokenSource() : token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(url, { method, headers, body: payload, credentials: 'include' }).catch(
    (cause: unknown) => {
      throw new NoResponseError({ cause });
    },
  );
  if (response.ok) return response;
  const text = await response.text();
  const error = (text ? safeJson(text) : undefined) as
    | (Partial<ApiErrorBody> &
        Partial<Pick<PlanRequiredErrorBody, 'upgradeUrl'>> &
        Partial<Pick<InsufficientCreditsErrorBody, 'buyCreditsUrl'>>)
    | undefined;
  const serverError = `Server error: ${response.status}`;
  throw new ApiError(
    error?.message || (statusMessage === 'status-text' && response.statusText) || serverError,
    response.status,
    error?.code,
    error?.upgradeUrl,
    error?.buyCreditsUrl,
  );
}

/** A call to the API under /api, its JSON answer typed by the caller from @prodshot/contracts. */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const text = await (await send(method, `/api${path}`, body, options)).text();
  return (text ? safeJson(text) : undefined) as T;
}

/** A file the API answers the signed-in seller (an image, a download), read with the bearer token like any call. */
export async function requestBlob(url: string): Promise<Blob> {
  return (await send('GET', url, undefined, {})).blob();
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A call that starts paid work, sent once per user action (see lib/idempotency.ts). */
export function keyed(idempotencyKey: string): Record<string, string> {
  return { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
}

/** The API answers 202 with the generation id at once: no proxy timeout can then lose it. */
export const RESPOND_ASYNC = { prefer: 'respond-async' };

/** A list page's query: `cursor` is the previous page's nextCursor, null for the first page. */
export function pageQuery(limit: number, cursor: string | null): string {
  return new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) }).toString();
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
