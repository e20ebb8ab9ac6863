import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const DOCS_PATH = '/api/docs';

/** Routes a client may call without a session token. */
const PUBLIC_PREFIXES = ['/api/health', '/api/client-config', '/api/dev/', '/api/webhooks/', '/api/payments/plans', '/api/payments/addon-plans'];

/** Product routes only: operator endpoints (/metrics, /admin), socket.io and the SPA stay out of the document. */
function documented(url: string): boolean {
  if (url.startsWith(DOCS_PATH)) return false;
  return url.startsWith('/api/') || url.startsWith('/uploads/');
}

/**
 * The OpenAPI document is generated from the schemas the routes validate with (TypeBox and plain
 * JSON schema), so it cannot drift from what the server accepts. Register before any route:
 * @fastify/swagger collects routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Prodshot API', version, description: 'Product photos in, studio-quality marketing shots out.' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: ({ schema, url }) => {
      if (!documented(url)) return { schema: { ...schema, hide: true }, url };
      const area = url.split('/')[url.startsWith('/api/') ? 2 : 1] ?? 'api';
      const isPublic = PUBLIC_PREFIXES.some((prefix) => url.startsWith(prefix));
      return { schema: { tags: [area], ...(isPublic ? { security: [] } : {}), ...schema }, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, uiConfig: { deepLinking: true }, staticCSP: true });
}
