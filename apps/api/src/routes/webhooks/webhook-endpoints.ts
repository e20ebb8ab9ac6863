import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  CreateWebhookBody,
  CreatedWebhookEndpoint,
  DeletedWebhookEndpointResponse,
  errorResponses,
  WebhookDeliveriesResponse,
  WebhookDeliveryParams,
  WebhookDeliveryResponse,
  WebhookEndpointsResponse,
  WebhookParams,
} from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';

/**
 * A seller's webhook endpoints and their deliveries (the Stripe webhook Prodshot receives is
 * routes/webhooks). Session-only, like API keys: a leaked key cannot point the seller's events elsewhere.
 */
export async function webhookEndpointRoutes(appBase: FastifyInstance, _deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const { webhookEndpoints } = app.services;

  app.post(
    '/api/webhooks',
    {
      schema: {
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookEndpoint, ...errorResponses([400, 401, 403]) },
      },
    },
    async (request, reply): Promise<CreatedWebhookEndpoint> => {
      void reply.status(201);
      return webhookEndpoints.create(request.user.id, request.body);
    },
  );

  app.get(
    '/api/webhooks',
    { schema: { response: { 200: WebhookEndpointsResponse, ...errorResponses([401, 403]) } } },
    async (request): Promise<WebhookEndpointsResponse> => ({
      data: await webhookEndpoints.list(request.user.id),
    }),
  );

  app.delete(
    '/api/webhooks/:id',
    {
      schema: {
        params: WebhookParams,
        response: { 200: DeletedWebhookEndpointResponse, ...errorResponses([401, 403, 404]) },
      },
    },
    async (request): Promise<DeletedWebhookEndpointResponse> => {
      await webhookEndpoints.delete(request.user.id, request.params.id);
      return { data: { id: request.params.id, deleted: true } };
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        params: WebhookParams,
        response: { 200: WebhookDeliveriesResponse, ...errorResponses([401, 403, 404]) },
      },
    },
    async (request): Promise<WebhookDeliveriesResponse> => ({
      data: await webhookEndpoints.deliveries(request.user.id, request.params.id),
    }),
  );

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        params: WebhookDeliveryParams,
        response: { 200: WebhookDeliveryResponse, ...errorResponses([401, 403, 404]) },
      },
    },
    async (request): Promise<WebhookDeliveryResponse> => ({
      data: await webhookEndpoints.sendAgain(request.user.id, request.params.id, request.params.deliveryId),
    }),
  );
}
