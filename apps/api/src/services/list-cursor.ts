import { isUuid, type ListPosition } from '@prodshot/db';
import { HttpError } from './http-error.js';

const POSITION = /^(\d{1,17}):([0-9a-f-]{36})$/;

export const MALFORMED_CURSOR_MESSAGE =
  'The cursor is not one this list gave out: pass nextCursor from the previous page as it is, or no cursor for the first page.';

/** A list's `nextCursor`: opaque to clients, so the keyset behind it can change. */
export function encodeCursor(position: ListPosition | null): string | null {
  return position ? Buffer.from(`${position.micros}:${position.id}`).toString('base64url') : null;
}

/** The position a `cursor` query names; 400 for anything this API did not hand out. */
export function decodeCursor(cursor: string | undefined): ListPosition | undefined {
  if (cursor === undefined) return undefined;
  const match = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
    : null;
  if (!match || !isUuid(match[2]!)) throw new HttpError(400, MALFORMED_CURSOR_MESSAGE, 'invalid_cursor');
  return { micros: match[1]!, id: match[2]! };
}
