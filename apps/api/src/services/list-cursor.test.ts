import { describe, expect, it } from 'vitest';
import { HttpError } from './http-error.js';
import { decodeCursor, encodeCursor, MALFORMED_CURSOR_MESSAGE } from './list-cursor.js';

const position = { micros: '1764000000123456', id: '0b9c7c7e-2f55-4d3a-9a8e-5d8f4a3b2c1d' };

function refusal(cursor: string): HttpError {
  try {
    decodeCursor(cursor);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error(`${cursor} was accepted`);
}

describe('list cursors', () => {
  it('give back the position they were made from, microseconds and all', () => {
    const cursor = encodeCursor(position)!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it('are null on the last page, and absent means the first page', () => {
    expect(encodeCursor(null)).toBeNull();
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it('refuse with 400 and a plain message anything the API did not hand out', () => {
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      'not a cursor',
      'abc',
      '',
      forged('12:not-a-uuid'),
      forged(`-5:${position.id}`),
      forged(`${'9'.repeat(18)}:${position.id}`),
      forged(`1.5:${position.id}`),
      forged(`12:${position.id}:x`),
    ]) {
      const error = refusal(cursor);
      expect(error.statusCode, cursor).toBe(400);
      expect(error.code).toBe('invalid_cursor');
      expect(error.message).toBe(MALFORMED_CURSOR_MESSAGE);
    }
  });
});
