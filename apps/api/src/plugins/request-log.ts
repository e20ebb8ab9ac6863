import type { FastifyRequest } from 'fastify';

/** Query parameters that grant access on their own: a signed file URL's signature. */
const SECRET_PARAMS = /^(signature|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;

/** The URL with the value of every signing parameter replaced, so a log line cannot be replayed as a link. */
export function redactSignedQuery(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  let redacted = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.test(key)) {
      params.set(key, 'redacted');
      redacted = true;
    }
  }
  return redacted ? `${url.slice(0, mark)}?${params.toString()}` : url;
}

/** Fastify's own request fields, with the URL's signing parameters redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactSignedQuery(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
