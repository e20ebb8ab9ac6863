import type { WebhookEventType } from '@prodshot/contracts';

/** Each event as the profile names it. */
export const EVENT_NAMES: Record<WebhookEventType, string> = {
  'generation.completed': 'Generation completed',
  'generation.failed': 'Generation failed',
  'batch.completed': 'Batch completed',
  'credits.low': 'Credits low',
};
