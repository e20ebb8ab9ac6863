import type { Publisher } from '@prodshot/contracts';
import type { Logger } from 'pino';
import type { WebhookEvents } from '@prodshot/db';

/**
 * The publisher, also turning what it announces into webhook events: a generation settled
 * (`generation:done`, sent once by whoever settled it) and a balance that moved (`credits:update`,
 * which re-arms credits.low when a refund lifts it back). Recording runs beside the emit and is
 * never awaited: a failure is logged, and the generation goes on as if no webhook existed.
 */
export function withWebhookEvents(publisher: Publisher, events: WebhookEvents, log: Pick<Logger, 'error'>): Publisher {
  const record = (work: Promise<void>, fields: Record<string, unknown>) =>
    void work.catch((err: unknown) => log.error({ err, ...fields }, 'recording a webhook event failed'));
  return {
    emit(userId, event, payload) {
      publisher.emit(userId, event, payload);
      if (event === 'generation:done') {
        const { generationId } = payload as { generationId: string };
        record(events.generationSettled(userId, generationId), { userId, generationId });
      } else if (event === 'credits:update') {
        const balance = payload as { subscriptionCredits: number; addOnCredits: number };
        record(events.creditsChanged(userId, balance), { userId });
      }
    },
  };
}
