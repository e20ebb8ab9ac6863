const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs: anything that is not a UUID cannot name a row, and must not reach Postgres as one. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
