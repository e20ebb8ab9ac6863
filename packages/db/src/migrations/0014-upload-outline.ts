import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The outline the seller checks before paying (its preview's key, whether the engine is unsure,
 * and the seller's confirmation or tap); null until the worker has made it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('images').addColumn('outline', 'jsonb').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('images').dropColumn('outline').execute();
}
