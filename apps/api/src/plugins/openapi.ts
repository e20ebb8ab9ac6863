import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import {
  apiErrorRef,
  errorSchemaComponents,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_WINDOW_HOURS,
} from '@prodshot/contracts';
import { API_GUIDE } from './api-guide.js';
import { DOCS_PATH, isProductRoute, routeAccess } from './route-access.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The multipart/form-data fields of a route that reads its parts as they stream in: the
     * document lists them as the request body, which the route does not validate as one.
     */
    documentedMultipartBody?: object;
    /** The route reads an Idempotency-Key (http/idempotency-key.ts): the document lists the header. */
    acceptsIdempotencyKey?: boolean;
  }
}

export const GUIDE_PATH = `${DOCS_PATH}/guide`;

const BEARER_DESCRIPTION =
  'A session token (from Clerk, or the embedded sign-in of a deployment without Clerk) or an API key (`psk_live_…`, or `psk_test_…` without Clerk) created on Profile → API keys. A key acts as its owner within its scopes: `read` for GET, `generate` for everything else; keys and payments take a session only.';

/** What each error status means across the API; the body is the shared schema the route references. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do.',
  '401': 'No valid session token or API key, or a revoked key.',
  '402': 'The credits do not cover this call: `needed`, `available` and where to buy more.',
  '403':
    'Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature.',
  '404': 'Not found, or not yours.',
  '409': 'Not possible in the current state (e.g. the work has not finished yet).',
  '413': 'The upload or a field is too large.',
  '415': 'The request is not in a media type this call reads.',
  '422':
    'Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot.',
  '429':
    'A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit.',
  '502': 'The image model failed; nothing was charged.',
  '503': 'Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds.',
  '504': 'The wait ran out; the work goes on (see `generationId`).',
};

const IDEMPOTENCY_HEADERS = {
  type: 'object',
  properties: {
    [IDEMPOTENCY_KEY_HEADER]: {
      type: 'string',
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      description: `Any unique string (a UUID): the same key from the same seller within ${IDEMPOTENCY_WINDOW_HOURS} hours answers with the first call's result and charges nothing more; with another request, 422.`,
    },
  },
};

const RATE_LIMIT_HEADERS = {
  'Retry-After': { type: 'integer', description: 'Seconds until the limit frees up.' },
  RateLimit: {
    type: 'string',
    description:
      'What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers).',
  },
  'RateLimit-Policy': {
    type: 'string',
    description: 'The limits this call counts against, e.g. `"generation";q=10;w=60`.',
  },
};

/** A route anyone may call (route-access.ts names them): the document lists no credential for it. */
function isPublic(route: RouteOptions): boolean {
  return [route.method].flat().every((method) => routeAccess(method, route.url) === 'public');
}

/**
 * The route's own answers, and the ones the app gives on every route: 503 while shedding load or
 * a dependency is down; on authenticated ones 401, 403 (a key's scope) and 429 (a key's own limit).
 * Each error references its shared body with its status's meaning; 429 lists the rate-limit headers.
 */
function documentedResponses(response: FastifySchema['response'], secured: boolean): Record<string, unknown> {
  const appWide = secured ? [401, 403, 429, 503] : [503];
  const own = (response ?? {}) as Record<string, object>;
  const all: Record<string, object> = { ...Object.fromEntries(appWide.map((status) => [status, apiErrorRef])), ...own };
  return Object.fromEntries(
    Object.entries(all).map(([status, schema]) => {
      // Only the shared error bodies: a route's own body for an error status (the health report's 503) keeps its description.
      if (!(status in ERROR_DESCRIPTIONS) || !('$ref' in schema)) return [status, schema];
      return [
        status,
        {
          ...schema,
          description: ERROR_DESCRIPTIONS[status],
          ...(status === '429' ? { headers: RATE_LIMIT_HEADERS } : {}),
        },
      ];
    }),
  );
}

/**
 * The OpenAPI document is generated from the schemas the routes validate with (TypeBox and plain
 * JSON schema), so it cannot drift from what the server accepts. Error bodies are shared schemas,
 * so each is one component the operations reference. Register before any route: @fastify/swagger
 * collects routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  for (const schema of errorSchemaComponents) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Prodshot API', version, description: API_GUIDE },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: BEARER_DESCRIPTION } },
      },
      security: [{ bearerAuth: [] }],
    },
    // Shared schemas keep their names (ApiError, InsufficientCreditsError, …) in components.schemas.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      if (!isProductRoute(url)) return { schema: { ...schema, hide: true }, url };
      const area = url.split('/')[url.startsWith('/api/') ? 2 : 1] ?? 'api';
      const secured = !isPublic(route);
      const config = route.config as { documentedMultipartBody?: object; acceptsIdempotencyKey?: boolean } | undefined;
      const body = config?.documentedMultipartBody
        ? { consumes: ['multipart/form-data'], body: config.documentedMultipartBody }
        : {};
      const headers = config?.acceptsIdempotencyKey ? { headers: IDEMPOTENCY_HEADERS } : {};
      return {
        schema: {
          tags: [area],
          ...(secured ? {} : { security: [] }),
          ...schema,
          ...body,
          ...headers,
          response: documentedResponses(schema?.response, secured),
        },
        url,
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, uiConfig: { deepLinking: true }, staticCSP: true });
  app.get(GUIDE_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/markdown; charset=utf-8').send(API_GUIDE),
  );
}
