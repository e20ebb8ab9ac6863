import {
  BUY_CREDITS_URL,
  INSUFFICIENT_CREDITS_CODE,
  insufficientCreditsMessage,
  type InsufficientCreditsErrorBody,
} from '@prodshot/contracts';
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  body: unknown;
  /** Request headers, names lower-cased. */
  headers: Record<string, string>;
}

/** Answers one call (or a promise of it): a JSON body for a 200, or a whole Response for anything else; a thrown error is a network failure. */
type Route = (body: unknown, call: ApiCall) => unknown;

/**
 * Replaces fetch with answers keyed by 'METHOD /path' (no /api prefix, no query string), and
 * records every call so tests can read what a screen sent. Unknown calls answer 404, as the API would.
 */
export function stubApi(routes: Record<string, Route>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const path = input.replace(/^\/api/, '').replace(/\?.*$/, '');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const headers = Object.fromEntries(
        Object.entries((init.headers ?? {}) as Record<string, string>).map(([name, value]) => [
          name.toLowerCase(),
          value,
        ]),
      );
      const call = { method, path, query: new URLSearchParams(input.split('?')[1] ?? ''), body, headers };
      calls.push(call);
      const route = routes[`${method} ${path}`];
      if (!route) return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
      const answer = await route(body, call);
      return answer instanceof Response
        ? answer
        : new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** An API error answer, as Fastify shapes it. */
export function apiError(status: number, message: string, code?: string): Response {
  return new Response(JSON.stringify({ statusCode: status, error: 'Error', message, ...(code ? { code } : {}) }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The API's 402 for paid work the balance does not cover, in its whole shape (where to buy credits included). */
export function insufficientCredits(needed: number, available: number): Response {
  const body: InsufficientCreditsErrorBody = {
    statusCode: 402,
    error: 'Payment Required',
    message: insufficientCreditsMessage(needed, available),
    code: INSUFFICIENT_CREDITS_CODE,
    needed,
    available,
    shortfall: needed - available,
    buyCreditsUrl: BUY_CREDITS_URL,
  };
  return new Response(JSON.stringify(body), { status: 402, headers: { 'content-type': 'application/json' } });
}

/** What fetch throws when no answer came back at all. */
export function networkFailure(): never {
  throw new TypeError('Failed to fetch');
}

/** The Idempotency-Key each recorded call carried. */
export function idempotencyKeys(calls: ApiCall[]): (string | undefined)[] {
  return calls.map((call) => call.headers['idempotency-key']);
}

/** jsdom lays nothing out: gives an <img> the box and natural size a browser would. */
export function layOutImage(
  img: HTMLElement,
  box: { left: number; top: number; width: number; height: number },
  natural: { width: number; height: number },
  fit = 'contain',
) {
  Object.defineProperty(img, 'naturalWidth', { value: natural.width, configurable: true });
  Object.defineProperty(img, 'naturalHeight', { value: natural.height, configurable: true });
  img.style.objectFit = fit;
  img.getBoundingClientRect = () => DOMRect.fromRect({ x: box.left, y: box.top, width: box.width, height: box.height });
}
