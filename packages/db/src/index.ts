export { createDatabase, pingDatabase, type Db, type CreateDatabaseOptions } from './database.js';
export { migrateToLatest, MigrationError } from './migrate.js';
export * from './schema.js';
export * from './repositories/credits-repository.js';
