import { sql, type RawBuilder } from 'kysely';

/**
 * Where a page of a newest-first list ends: the last row's time, in whole microseconds since the
 * epoch (Postgres keeps microseconds, a JS Date only milliseconds, and a rounded time would skip
 * or repeat rows that share a millisecond), and its id, which breaks ties.
 */
export interface ListPosition {
  micros: string;
  id: string;
}

export interface Page<T> {
  items: T[];
  /** Where the next page starts; null when this one is the last. */
  next: ListPosition | null;
}

/** A page and how many rows the whole list holds, so a client can number its pages before fetching them. */
export interface CountedPage<T> extends Page<T> {
  total: number;
}

/** The column as `ListPosition.micros`. */
export function micros(column: string): RawBuilder<string> {
  return sql<string>`(extract(epoch from ${sql.ref(column)}) * 1000000)::bigint::text`;
}

/** Rows after `position` in (time, id) descending order. */
export function after(timeColumn: string, idColumn: string, position: ListPosition): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) < ('epoch'::timestamptz + ${position.micros}::bigint * interval '1 microsecond', ${position.id}::uuid)`;
}

/** Rows fetched with `limit + 1`: the extra row only says that another page exists. */
export function toPage<T extends { id: string }>(rows: T[], limit: number, positionOf: (row: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { micros: positionOf(last), id: last.id } : null };
}
