import { loadConfig } from '@prodshot/config';
import { createDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';

/** `npm run migrate`: applies pending migrations to DATABASE_URL. */
const config = loadConfig(process.env, { require: ['DATABASE_URL'] });
const db = createDatabase({ connectionString: config.databaseUrl!, max: 1 });
try {
  const { results = [] } = await migrateToLatest(db);
  for (const r of results) console.log(`migration ${r.migrationName}: ${r.status}`);
  if (results.length === 0) console.log('migrations: already up to date');
} finally {
  await db.destroy();
}
