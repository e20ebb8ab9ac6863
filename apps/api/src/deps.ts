import type { Config } from '@prodshot/config';
import type { Db } from '@prodshot/db';
import type { ObjectStore } from '@prodshot/storage';
import type { Redis } from 'ioredis';

/** Everything the API talks to, built once at boot and passed in, so tests can build the app on their own stack. */
export interface AppDeps {
  config: Config;
  db: Db;
  redis: Redis;
  store: ObjectStore;
  /** Secret the filesystem store signs URLs with; undefined for S3, which signs its own. */
  fileSigningSecret: string | undefined;
}
