import type { Redis } from 'ioredis';

/** The engine work an account with nothing gets a daily allowance of. */
export type FreeWork = 'analysis' | 'recommendation';

/**
 * One day's uses are a set, so a use asked for again (the web app polls an upload's subject while
 * it is pending, and each poll asks for its analysis) counts once. Checking and adding in one script
 * keeps concurrent requests from overshooting the limit. The key outlives its day by up to a day.
 */
const TAKE_SCRIPT = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
`;
const KEY_TTL_SECONDS = 2 * 86_400;

/**
 * The count of each free account's uses per UTC day, in Redis: every API replica shares it, it is
 * atomic, and a day's count expires by itself (no table, no purge). Redis runs with AOF and
 * noeviction (README), so a restart keeps the counts.
 */
export class FreeAllowanceCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Records `useId` against the user's allowance of `limit` for the UTC day; false when the day's uses are all taken. */
  async take(input: { userId: string; work: FreeWork; useId: string; limit: number; now?: Date }): Promise<boolean> {
    const day = (input.now ?? new Date()).toISOString().slice(0, 10);
    const key = `${this.prefix}:free-allowance:${input.work}:${input.userId}:${day}`;
    return (await this.redis.eval(TAKE_SCRIPT, 1, key, input.useId, input.limit, KEY_TTL_SECONDS)) === 1;
  }
}
