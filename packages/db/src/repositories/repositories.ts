import { IDEMPOTENCY_WINDOW_HOURS } from '@prodshot/contracts';
import { withTransaction, type Db } from '../database.js';
import { AdvisoryLocksRepository } from './advisory-locks.js';
import { ApiKeysRepository } from './api-keys-repository.js';
import { BatchesRepository } from './batches-repository.js';
import { CreditsRepository } from './credits-repository.js';
import { GenerationsRepository } from './generations-repository.js';
import { HistoryRepository } from './history-repository.js';
import { IdempotencyKeysRepository } from './idempotency-keys-repository.js';
import { ImagesRepository } from './images-repository.js';
import { ProcessedWebhookEventsRepository } from './processed-webhook-events-repository.js';
import { SubscriptionsRepository } from './subscriptions-repository.js';
import { UsersRepository } from './users-repository.js';
import { WebhooksRepository } from './webhooks-repository.js';

/** Every table's repository over one connection (the pool, or a transaction). */
export interface Repositories {
  /** Transaction-scoped locks: only meaningful on repositories built over a transaction. */
  advisoryLocks: AdvisoryLocksRepository;
  apiKeys: ApiKeysRepository;
  batches: BatchesRepository;
  credits: CreditsRepository;
  generations: GenerationsRepository;
  history: HistoryRepository;
  idempotencyKeys: IdempotencyKeysRepository;
  images: ImagesRepository;
  /** Stripe's events already applied, by id: a replayed delivery is acknowledged and not applied again. */
  processedWebhookEvents: ProcessedWebhookEventsRepository;
  subscriptions: SubscriptionsRepository;
  users: UsersRepository;
  /** Sellers' webhook endpoints and their deliveries (Stripe's own events are processedWebhookEvents). */
  webhooks: WebhooksRepository;
}

/**
 * Built once per process over the pool and handed to services through their constructors; built
 * again over a transaction where several writes must commit together (see `inTransaction`).
 */
export function createRepositories(db: Db): Repositories {
  return {
    advisoryLocks: new AdvisoryLocksRepository(db),
    apiKeys: new ApiKeysRepository(db),
    batches: new BatchesRepository(db),
    credits: new CreditsRepository(db),
    generations: new GenerationsRepository(db),
    history: new HistoryRepository(db),
    idempotencyKeys: new IdempotencyKeysRepository(db, IDEMPOTENCY_WINDOW_HOURS),
    images: new ImagesRepository(db),
    processedWebhookEvents: new ProcessedWebhookEventsRepository(db),
    subscriptions: new SubscriptionsRepository(db),
    users: new UsersRepository(db),
    webhooks: new WebhooksRepository(db),
  };
}

/** Runs `work` in one transaction, with every repository bound to it; given a transaction, it joins it. */
export function inTransaction<T>(db: Db, work: (repos: Repositories) => Promise<T>): Promise<T> {
  return withTransaction(db, (tx) => work(createRepositories(tx)));
}
