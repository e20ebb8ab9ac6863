import type { Config } from '@prodshot/config';
import type { Db } from '@prodshot/db';
import type { ObjectStore } from '@prodshot/storage';

export interface WorkerDeps {
  config: Config;
  db: Db;
  store: ObjectStore;
}
