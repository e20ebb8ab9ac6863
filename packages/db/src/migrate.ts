import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './database.js';
import * as initial from './migrations/0001-initial.js';
import * as imageSubject from './migrations/0002-image-subject.js';
import * as idempotencyKeys from './migrations/0003-idempotency-keys.js';
import * as billing from './migrations/0004-billing.js';
import * as renditions from './migrations/0005-renditions.js';
import * as historyRetention from './migrations/0006-history-retention.js';
import * as autoGenerations from './migrations/0007-auto-generations.js';
import * as batches from './migrations/0008-batches.js';
import * as imageProductTitle from './migrations/0009-image-product-title.js';
import * as outputSeeds from './migrations/0010-output-seeds.js';
import * as uploadCoach from './migrations/0011-upload-coach.js';
import * as secondSubscriptions from './migrations/0012-second-subscriptions.js';
import * as clawbackDebt from './migrations/0013-clawback-debt.js';
import * as uploadOutline from './migrations/0014-upload-outline.js';
import * as downloadCopies from './migrations/0015-download-copies.js';
import * as apiKeys from './migrations/0016-api-keys.js';
import * as webhooks from './migrations/0017-webhooks.js';

/** Migrations are imported statically so that source runs (tests) and built runs (dist) apply the same set. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-image-subject': imageSubject,
  '0003-idempotency-keys': idempotencyKeys,
  '0004-billing': billing,
  '0005-renditions': renditions,
  '0006-history-retention': historyRetention,
  '0007-auto-generations': autoGenerations,
  '0008-batches': batches,
  '0009-image-product-title': imageProductTitle,
  '0010-output-seeds': outputSeeds,
  '0011-upload-coach': uploadCoach,
  '0012-second-subscriptions': secondSubscriptions,
  '0013-clawback-debt': clawbackDebt,
  '0014-upload-outline': uploadOutline,
  '0015-download-copies': downloadCopies,
  '0016-api-keys': apiKeys,
  '0017-webhooks': webhooks,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new MigrationError(`Migration ${failed} failed: ${cause}`, { cause: result.error });
  }
  return result;
}
