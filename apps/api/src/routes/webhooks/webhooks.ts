import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { AppDeps } from '../../deps.js';
import { errorBody } from '../../plugins/error-handler.js';
import { createStripeClient } from '../../services/stripe-payments.js';
import { applyStripeEvent, EventTooEarlyError, type WebhookOutcome } from '../../services/stripe-webhooks.js';

/** Stripe's events; absent with the local provider, which has nobody to call it. */
export async function webhookRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const payments = deps.config.payments;
  if (payments.mode !== 'stripe') return;
  const stripe = createStripeClient(payments);

  // The signature covers the exact bytes sent, so this route keeps the body raw (this plugin's scope only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post<{ Body: Buffer }>('/api/webhooks/stripe', async (request, reply) => {
    const signature = request.headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw new Error('missing signature or body');
      event = stripe.webhooks.constructEvent(request.body, signature, payments.webhookSecret);
    } catch {
      return reply.status(400).send(errorBody(400, 'Invalid webhook signature', 'invalid_signature'));
    }
    let outcome: WebhookOutcome;
    try {
      outcome = await applyStripeEvent(deps, event);
    } catch (error) {
      if (!(error instanceof EventTooEarlyError)) throw error;
      request.log.info({ eventId: event.id, type: event.type, reason: error.message }, 'stripe webhook deferred');
      return reply.status(503).send(errorBody(503, error.message, 'event_too_early'));
    }
    request.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe webhook');
    return { received: true, duplicate: outcome === 'duplicate' };
  });
}
