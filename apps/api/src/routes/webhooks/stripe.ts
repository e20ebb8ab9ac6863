import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { WebhookReceipt, errorResponses } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { HttpError } from '../../services/http-error.js';
import { EventTooEarlyError } from '../../services/billing/stripe-event-refs.js';
import { createStripeClient } from '../../services/billing/stripe-payments.js';
import type { WebhookResult } from '../../services/billing/stripe-webhooks/stripe-webhooks.js';

/** Stripe's events; absent with the local provider, which has nobody to call it. */
export async function stripeWebhookRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const payments = deps.config.payments;
  const webhooks = app.services.stripeWebhooks;
  if (payments.mode !== 'stripe' || !webhooks) return;
  const stripe = createStripeClient(payments);

  // The signature covers the exact bytes sent, so this route keeps the body raw (this plugin's scope only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/api/webhooks/stripe',
    // 503: an event that cannot apply yet, so that Stripe delivers it again later.
    { schema: { response: { 200: WebhookReceipt, ...errorResponses([400, 503]) } } },
    async (request): Promise<WebhookReceipt> => {
      const signature = request.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body))
          throw new Error('missing signature or body');
        event = stripe.webhooks.constructEvent(request.body, signature, payments.webhookSecret);
      } catch {
        throw new HttpError(400, 'Invalid webhook signature', 'invalid_signature');
      }
      let result: WebhookResult;
      try {
        result = await webhooks.apply(event);
      } catch (error) {
        if (!(error instanceof EventTooEarlyError)) throw error;
        request.log.info({ eventId: event.id, type: event.type, reason: error.message }, 'stripe webhook deferred');
        throw new HttpError(503, error.message, 'event_too_early');
      }
      const { duplicate, endedSecond } = result;
      if (endedSecond) {
        const { userId, subscriptionId, keptSubscriptionId, refunded, firstSeen } = endedSecond;
        // A seller was charged twice for one plan: someone should know, even though it was put right.
        request.log.warn(
          { eventId: event.id, userId, cancelledSubscriptionId: subscriptionId, keptSubscriptionId, refunded },
          'second stripe subscription cancelled',
        );
        if (firstSeen) deps.metrics?.secondSubscriptionCancelled();
      }
      request.log.info({ eventId: event.id, type: event.type, duplicate }, 'stripe webhook');
      return { received: true, duplicate };
    },
  );
}
