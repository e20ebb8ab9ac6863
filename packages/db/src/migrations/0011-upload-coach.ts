import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The photo coach's warnings on each upload: the API writes the pixel checks with the row, the
 * worker adds the product checks with the subject. Rows stored before the coach have none.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('images')
    .addColumn('coach', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('images').dropColumn('coach').execute();
}
