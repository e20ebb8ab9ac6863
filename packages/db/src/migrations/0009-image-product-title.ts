import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** The seller's title for the product in an upload: download names and the engine's hints use it. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('images').addColumn('product_title', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('images').dropColumn('product_title').execute();
}
