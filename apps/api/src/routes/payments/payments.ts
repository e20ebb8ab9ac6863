import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  ADDON_PACKS,
  AddOnPlansResponse,
  BuyCreditsRequest,
  CancelSubscriptionResponse,
  CreateSubscriptionRequest,
  PaymentLinkResponse,
  PLANS,
  PlansResponse,
  PortalSessionResponse,
  errorResponses,
} from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { localPaymentsGuard } from '../../plugins/loopback-only.js';
import { idempotencyKey } from '../../http/idempotency-key.js';

export async function paymentRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const payments = app.services.payments;
  // The local provider grants what it sells: loopback clients only, unless ALLOW_LOCAL_PAYMENTS. The
  // paying routes are session-only (plugins/route-access.ts): an API key, leaked or not, cannot buy or cancel anything.
  const payer = localPaymentsGuard(deps.config);

  app.get(
    '/api/payments/plans',
    { schema: { response: { 200: PlansResponse } } },
    async (): Promise<PlansResponse> => ({ data: [...PLANS] }),
  );
  app.get(
    '/api/payments/addon-plans',
    { schema: { response: { 200: AddOnPlansResponse } } },
    async (): Promise<AddOnPlansResponse> => ({
      data: [...ADDON_PACKS],
    }),
  );

  app.post(
    '/api/payments/subscription',
    {
      onRequest: payer,
      schema: {
        body: CreateSubscriptionRequest,
        response: { 200: PaymentLinkResponse, ...errorResponses([400, 401, 403, 409, 429]) },
      },
    },
    async (request): Promise<PaymentLinkResponse> =>
      payments.subscribe(request.user, request.body.planKey, idempotencyKey(request)),
  );

  app.post(
    '/api/payments/credits',
    {
      onRequest: payer,
      schema: {
        body: BuyCreditsRequest,
        response: { 200: PaymentLinkResponse, ...errorResponses([400, 401, 403, 429]) },
      },
    },
    async (request): Promise<PaymentLinkResponse> =>
      payments.buyAddOn(request.user, request.body.planKey, idempotencyKey(request)),
  );

  app.post(
    '/api/payments/portal-session',
    { onRequest: payer, schema: { response: { 200: PortalSessionResponse, ...errorResponses([401, 403, 404, 429]) } } },
    async (request): Promise<PortalSessionResponse> => payments.portalSession(request.user),
  );

  app.post(
    '/api/payments/cancel-subscription',
    {
      onRequest: payer,
      schema: { response: { 200: CancelSubscriptionResponse, ...errorResponses([401, 403, 404, 429]) } },
    },
    async (request): Promise<CancelSubscriptionResponse> => payments.cancel(request.user),
  );
}
