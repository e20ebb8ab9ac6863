import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ClientConfigResponse } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';

/**
 * `GET /api/client-config`: what the web app must know before it can sign anyone in. Public,
 * because the sign-in choice is made before there is a token; it carries only the publishable key.
 */
export async function clientConfigRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/client-config',
    { schema: { response: { 200: ClientConfigResponse } } },
    async (): Promise<ClientConfigResponse> => {
      const auth = deps.config.auth;
      if (auth.mode !== 'clerk') return { auth: { mode: 'embedded' } };
      return {
        auth: {
          mode: 'clerk',
          publishableKey: auth.publishableKey,
          ...(auth.jwtTemplate ? { jwtTemplate: auth.jwtTemplate } : {}),
        },
      };
    },
  );
}
