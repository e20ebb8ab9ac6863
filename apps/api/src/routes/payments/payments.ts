import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADDON_PACKS,
  alreadySubscribedMessage,
  CANCEL_SUCCESS_MESSAGE,
  findAddOnPack,
  findPlan,
  NO_ACTIVE_SUBSCRIPTION_MESSAGE,
  PLANS,
  type AddOnPlansResponse,
  type BuyCreditsRequest,
  type CancelSubscriptionResponse,
  type CreateSubscriptionRequest,
  type PaymentLinkResponse,
  type PlansResponse,
  type PortalSessionResponse,
} from '@prodshot/contracts';
import { SubscriptionsRepository } from '@prodshot/db';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { errorBody } from '../../plugins/error-handler.js';
import { isActive, subscriptionInfo } from '../../services/billing.js';
import { createPaymentsProvider } from '../../services/payments-provider.js';

const purchaseBody = {
  type: 'object',
  required: ['planKey'],
  properties: {
    planKey: { type: 'string', maxLength: 40 },
    customerData: { type: 'object' },
    return_url: { type: 'string', maxLength: 2048 },
  },
} as const;

function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  return typeof header === 'string' && header.length > 0 && header.length <= 200 ? header : undefined;
}

export async function paymentRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const provider = createPaymentsProvider(deps);
  const subscriptions = new SubscriptionsRepository(deps.db);

  app.get('/api/payments/plans', async (): Promise<PlansResponse> => ({ data: [...PLANS] }));
  app.get('/api/payments/addon-plans', async (): Promise<AddOnPlansResponse> => ({ data: [...ADDON_PACKS] }));

  app.post<{ Body: CreateSubscriptionRequest }>(
    '/api/payments/subscription',
    { onRequest: requireUser, schema: { body: purchaseBody } },
    async (request, reply): Promise<PaymentLinkResponse | undefined> => {
      const plan = findPlan(request.body.planKey);
      if (!plan) return reply.status(400).send(errorBody(400, 'Unknown plan', 'unknown_plan'));
      const current = await subscriptions.findByUserId(request.user.id);
      // The plan held, with no change pending: nothing to buy. With a change pending, choosing it again withdraws the change.
      if (isActive(current) && current.plan === plan.id && current.pending_plan === null) {
        return reply.status(409).send(errorBody(409, alreadySubscribedMessage(plan.id), 'already_subscribed'));
      }
      const result = await provider.subscribe({ user: request.user, plan, current, idempotencyKey: idempotencyKey(request) });
      return { payment_link: result.paymentLink };
    },
  );

  app.post<{ Body: BuyCreditsRequest }>(
    '/api/payments/credits',
    { onRequest: requireUser, schema: { body: purchaseBody } },
    async (request, reply): Promise<PaymentLinkResponse | undefined> => {
      const pack = findAddOnPack(request.body.planKey);
      if (!pack) return reply.status(400).send(errorBody(400, 'Unknown add-on pack', 'unknown_plan'));
      const current = await subscriptions.findByUserId(request.user.id);
      const result = await provider.buyAddOn({ user: request.user, pack, current, idempotencyKey: idempotencyKey(request) });
      return { payment_link: result.paymentLink };
    },
  );

  app.post('/api/payments/portal-session', { onRequest: requireUser }, async (request, reply): Promise<PortalSessionResponse | undefined> => {
    const current = await subscriptions.findByUserId(request.user.id);
    const url = await provider.portalSession({ user: request.user, current });
    if (!url) return reply.status(404).send(errorBody(404, 'No billing account found', 'no_billing_account'));
    return { data: { url } };
  });

  app.post('/api/payments/cancel-subscription', { onRequest: requireUser }, async (request, reply): Promise<CancelSubscriptionResponse | undefined> => {
    const current = await subscriptions.findByUserId(request.user.id);
    if (!isActive(current)) return reply.status(404).send(errorBody(404, NO_ACTIVE_SUBSCRIPTION_MESSAGE, 'no_active_subscription'));
    await provider.cancelAtPeriodEnd(current);
    const updated = await subscriptions.findByUserId(request.user.id);
    return { data: { message: CANCEL_SUCCESS_MESSAGE, subscription: subscriptionInfo(updated) } };
  });
}
