import { createHash, randomUUID } from 'node:crypto';
import type { CreditBalance, WebhookEvent, WebhookEventType } from '@prodshot/contracts';
import { archiveLink, type ArchiveLinkSecret, type ObjectStore } from '@prodshot/storage';
import { batchDto } from './batch-dto.js';
import { generationDto } from './generation-dto.js';
import type { GenerationWithStyles } from './repositories/generations-repository.js';
import type { Repositories } from './repositories/repositories.js';

/** Puts the new deliveries' jobs on the webhook queue (the queue's producer; this package knows no queue). */
export type EnqueueDeliveries = (deliveryIds: string[]) => Promise<void>;

type EventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

/** An id the same for the same fact however often it is recorded, so two workers recording it make one delivery. */
function eventId(...parts: string[]): string {
  return `evt_${createHash('sha256').update(parts.join(':')).digest('hex').slice(0, 32)}`;
}

/**
 * Turns what happened to a seller's work and credits into webhook deliveries: a row per subscribed
 * endpoint, then a job for each. The API (credits) and the worker (generations, batches) both record
 * here; neither waits on a receiver, and the caller catches what fails so a generation never does.
 */
export class WebhookEvents {
  constructor(
    private readonly repos: Pick<Repositories, 'webhooks' | 'generations' | 'batches'>,
    private readonly store: ObjectStore,
    private readonly linkSecret: ArchiveLinkSecret,
    private readonly enqueue: EnqueueDeliveries,
  ) {}

  /** A generation has just settled: generation.completed or generation.failed, and batch.completed when it was its batch's last. */
  async generationSettled(userId: string, generationId: string): Promise<void> {
    const generation = await this.repos.generations.find(generationId);
    if (!generation || (generation.status !== 'complete' && generation.status !== 'failed')) return;
    const type = generation.status === 'complete' ? 'generation.completed' : 'generation.failed';
    // A generation settles again when its seller opens more slots on it: that is a new event.
    const id = eventId(type, generation.id, generation.completed_at?.toISOString() ?? '');
    await this.record(userId, {
      id,
      type,
      createdAt: new Date().toISOString(),
      data: await generationDto(this.store, generation),
    });
    if (generation.batch_id) await this.batchSettled(userId, generation.batch_id);
  }

  /** The balance moved: credits.low to each endpoint whose threshold it has just fallen below. */
  async creditsChanged(userId: string, balance: CreditBalance): Promise<void> {
    const total = balance.subscriptionCredits + balance.addOnCredits;
    const crossed = await this.repos.webhooks.creditsLowCrossed(userId, total);
    for (const endpoint of crossed) {
      const event: EventOf<'credits.low'> = {
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        type: 'credits.low',
        createdAt: new Date().toISOString(),
        data: { balance: total, threshold: endpoint.credits_low_threshold ?? 0 },
      };
      await this.deliver([endpoint.id], event);
    }
  }

  private async batchSettled(userId: string, batchId: string): Promise<void> {
    const batch = await this.repos.batches.find(batchId);
    if (!batch || !batch.generations.every(isSettled)) return;
    await this.record(userId, {
      id: eventId('batch.completed', batch.id),
      type: 'batch.completed',
      createdAt: new Date().toISOString(),
      data: await batchDto(this.store, batch, archiveLink(await this.linkSecret.get(), batch.id)),
    });
  }

  private async record(userId: string, event: WebhookEvent): Promise<void> {
    const endpoints = await this.repos.webhooks.subscribers(userId, event.type);
    await this.deliver(
      endpoints.map((endpoint) => endpoint.id),
      event,
    );
  }

  private async deliver(endpointIds: string[], event: WebhookEvent): Promise<void> {
    const created = await this.repos.webhooks.recordEvent(endpointIds, event);
    if (created.length > 0) await this.enqueue(created.map((delivery) => delivery.id));
  }
}

function isSettled(generation: GenerationWithStyles): boolean {
  return generation.status === 'complete' || generation.status === 'failed';
}
