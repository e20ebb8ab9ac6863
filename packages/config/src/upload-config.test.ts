import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

const base = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db', REDIS_URL: 'redis://127.0.0.1:6379' };

function variableOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  return undefined;
}

describe('upload decoding bounds', () => {
  it('decodes two uploads at once with eight waiting unless told otherwise', () => {
    expect(loadConfig(base).uploads).toEqual({ decodeConcurrency: 2, decodeQueue: 8 });
    expect(loadConfig({ ...base, UPLOAD_DECODE_CONCURRENCY: '1', UPLOAD_DECODE_QUEUE: '0' }).uploads).toEqual({
      decodeConcurrency: 1,
      decodeQueue: 0,
    });
  });

  it('names a bound that would let no upload through or is not a number', () => {
    expect(variableOf(() => loadConfig({ ...base, UPLOAD_DECODE_CONCURRENCY: '0' }))).toBe('UPLOAD_DECODE_CONCURRENCY');
    expect(variableOf(() => loadConfig({ ...base, UPLOAD_DECODE_QUEUE: 'many' }))).toBe('UPLOAD_DECODE_QUEUE');
  });
});
