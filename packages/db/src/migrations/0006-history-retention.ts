import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * History by plan: lists page by (time, id) and the purge deletes the oldest rows past a plan's
 * days, so both read these indexes instead of scanning the tables.
 */
export async function up(db: AnyDb): Promise<void> {
  // The uploads list's keyset: a user's newest first, ties broken by id.
  await db.schema
    .createIndex('images_user_created_id_idx')
    .on('images')
    .columns(['user_id', 'created_at desc', 'id desc'])
    .execute();
  await db.schema.dropIndex('images_user_created_idx').execute();
  // The purge walks the oldest rows first, across users.
  await db.schema.createIndex('images_created_idx').on('images').column('created_at').execute();
  await db.schema.createIndex('generations_created_idx').on('generations').column('created_at').execute();
  // Deleting an upload nulls its generations' image_id, and the purge spares an upload a running generation reads.
  await db.schema.createIndex('generations_image_idx').on('generations').column('image_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('generations_image_idx').execute();
  await db.schema.dropIndex('generations_created_idx').execute();
  await db.schema.dropIndex('images_created_idx').execute();
  await db.schema.createIndex('images_user_created_idx').on('images').columns(['user_id', 'created_at desc']).execute();
  await db.schema.dropIndex('images_user_created_id_idx').execute();
}
