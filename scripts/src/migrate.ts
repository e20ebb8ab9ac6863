import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@prodshot/config';
import { createDatabase, migrateToLatest } from '@prodshot/db';
import { startEmbeddedPostgres } from '@prodshot/embedded';
import { describeStartError } from './run-stack.js';

/** `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded Postgres when none is set. */
async function main(): Promise<void> {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const config = loadConfig(process.env, { cwd: repoRoot });
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        dataDir: path.join(config.dataDir, 'postgres'),
        port: config.embedded.postgresPort,
        database: 'prodshot',
      });
  const db = createDatabase({ connectionString: config.databaseUrl ?? embedded!.url, max: 1 });
  try {
    const { results = [] } = await migrateToLatest(db);
    for (const result of results) console.log(`migration ${result.migrationName}: ${result.status}`);
    if (results.length === 0) console.log('migrations: already up to date');
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(describeStartError(error));
  process.exit(1);
});
