import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Whether the worker has written an image's thumbnail and preview beside it. Rows stored before
 * renditions existed start without them, and their full URL stands in until they are made.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('images')
    .addColumn('renditions', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('generation_styles')
    .addColumn('renditions', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('generation_styles').dropColumn('renditions').execute();
  await db.schema.alterTable('images').dropColumn('renditions').execute();
}
