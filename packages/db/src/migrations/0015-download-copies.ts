import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Each output records its size, and the download copy stored beside it (a JPEG, or a WebP for a
 * cutout) with its size: Download names both sizes and a batch's zip its own without asking
 * storage. Outputs stored before have none: their original is what Download saves.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table generation_styles add column result_bytes integer, add column download_key text, add column download_bytes integer`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`alter table generation_styles drop column result_bytes, drop column download_key, drop column download_bytes`.execute(
    db,
  );
}
