import type { Config } from '@prodshot/config';
import type { Db } from '@prodshot/db';
import type { ObjectStore } from '@prodshot/storage';
import type { JobProducer } from '@prodshot/queue';
import type { Redis } from 'ioredis';
import type { ApiMetrics } from './plugins/metrics.js';
import type { CreditsChangedListener } from './services/billing/credit-transactions.js';

/** Everything the API talks to, built once at boot and passed in, so tests can build the app on their own stack. */
export interface AppDeps {
  config: Config;
  db: Db;
  redis: Redis;
  store: ObjectStore;
  /** Secret the filesystem store signs URLs with; undefined for S3, which signs its own. */
  fileSigningSecret: string | undefined;
  /** Enqueues jobs for the workers and waits on their results. */
  producer: JobProducer;
  /** Told after billing moved a user's credits (a plan period, an add-on pack); unset means nobody listens. */
  onCreditsChanged?: CreditsChangedListener;
  /** Set by buildApp: counters the services bump where the money moves. */
  metrics?: ApiMetrics;
}
