import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** What the cutout model found in each upload (null until the worker has looked). */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('images').addColumn('subject', 'jsonb').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('images').dropColumn('subject').execute();
}
