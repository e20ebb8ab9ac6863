import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const BEFORE = `'manual', 'smart', 'remove-background', 'generate-background'`;

/** Auto mode's shots (the engine picks the scene) are generations of their own kind, so history can say 'Auto'. */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table generations drop constraint generations_kind_check`.execute(db);
  await sql`alter table generations add constraint generations_kind_check check (kind in (${sql.raw(BEFORE)}, 'auto'))`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`update generations set kind = 'manual' where kind = 'auto'`.execute(db);
  await sql`alter table generations drop constraint generations_kind_check`.execute(db);
  await sql`alter table generations add constraint generations_kind_check check (kind in (${sql.raw(BEFORE)}))`.execute(
    db,
  );
}
