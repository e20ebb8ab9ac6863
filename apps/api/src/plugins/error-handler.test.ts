import { describe, expect, it } from 'vitest';
import { isDependencyOutage } from './error-handler.js';

/** What ioredis rejects with when Redis answers a command with an error. */
const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

describe('isDependencyOutage (answered 503 with Retry-After, which the web app retries)', () => {
  it.each([
    ['a full Redis', "OOM command not allowed when used memory > 'maxmemory'."],
    ['a Redis replica during failover', "READONLY You can't write against a read only replica."],
    ['a Redis still loading its data', 'LOADING Redis is loading the dataset in memory'],
    ['a dropped Redis connection', 'Connection is closed.'],
  ])('counts %s', (_, message) => {
    expect(isDependencyOutage(replyError(message))).toBe(true);
    expect(isDependencyOutage(new Error('enqueue failed', { cause: replyError(message) }))).toBe(true);
  });

  it('leaves a command Redis refuses for good, and our own bugs, to the 500 path', () => {
    expect(isDependencyOutage(replyError("ERR unknown command 'FOO'"))).toBe(false);
    expect(isDependencyOutage(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });
});
