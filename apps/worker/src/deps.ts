import type { Config } from '@prodshot/config';
import type { CreditsRepository, Db, GenerationsRepository } from '@prodshot/db';
import type { ImageModel } from '@prodshot/imaging';
import type { JobProducer } from '@prodshot/queue';
import type { ObjectStore } from '@prodshot/storage';
import type { Publisher } from './realtime/publisher.js';

export interface WorkerDeps {
  config: Config;
  db: Db;
  store: ObjectStore;
  engine: ImageModel;
  generations: GenerationsRepository;
  credits: CreditsRepository;
  publisher: Publisher;
  /** Smart generation fans out into style jobs from inside the worker. */
  producer: JobProducer;
  /** Counters bumped where credits move; unset in processes that serve no metrics. */
  metrics?: { creditsRefunded(amount: number): void };
}
