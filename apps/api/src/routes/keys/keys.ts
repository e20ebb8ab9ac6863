import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  ApiKeyParams,
  ApiKeysResponse,
  CreateApiKeyBody,
  CreatedApiKey,
  RevokedApiKeyResponse,
  errorResponses,
} from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';

/** A seller's API keys. Session-only: a key cannot make, list or revoke keys (a leaked key could otherwise keep itself alive). */
export async function apiKeyRoutes(appBase: FastifyInstance, _deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const { apiKeys } = app.services;

  app.post(
    '/api/keys',
    { schema: { body: CreateApiKeyBody, response: { 201: CreatedApiKey, ...errorResponses([400, 401, 403]) } } },
    async (request, reply): Promise<CreatedApiKey> => {
      void reply.status(201);
      return apiKeys.create(request.user.id, request.body);
    },
  );

  app.get(
    '/api/keys',
    { schema: { response: { 200: ApiKeysResponse, ...errorResponses([401, 403]) } } },
    async (request): Promise<ApiKeysResponse> => ({
      data: await apiKeys.list(request.user.id),
    }),
  );

  app.delete(
    '/api/keys/:id',
    { schema: { params: ApiKeyParams, response: { 200: RevokedApiKeyResponse, ...errorResponses([401, 403, 404]) } } },
    async (request): Promise<RevokedApiKeyResponse> => {
      await apiKeys.revoke(request.user.id, request.params.id);
      return { data: { id: request.params.id, revoked: true } };
    },
  );
}
