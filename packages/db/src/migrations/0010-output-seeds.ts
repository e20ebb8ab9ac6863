import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Each output records the seed its scene was rendered with (More like this asks for a new one),
 * and each slot counts its retries: a retried style reserves, settles and refunds under keys of
 * its own attempt, so a retry that fails again gets its credit back like the first failure did.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table generation_styles add column seed integer, add column attempt integer not null default 0`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`alter table generation_styles drop column seed, drop column attempt`.execute(db);
}
