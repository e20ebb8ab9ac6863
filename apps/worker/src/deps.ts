import type { Publisher } from '@prodshot/contracts';
import type { Config } from '@prodshot/config';
import type { Db, Repositories } from '@prodshot/db';
import type { ImageModel } from '@prodshot/imaging';
import type { JobProducer } from '@prodshot/queue';
import type { ObjectStore } from '@prodshot/storage';

export interface WorkerDeps {
  config: Config;
  db: Db;
  store: ObjectStore;
  engine: ImageModel;
  /** Every repository over the pool, built once per process. */
  repos: Repositories;
  publisher: Publisher;
  /** Smart generation fans out into style jobs from inside the worker. */
  producer: JobProducer;
  /** Counters bumped where credits move; unset in processes that serve no metrics. */
  metrics?: { creditsRefunded(amount: number): void };
}
