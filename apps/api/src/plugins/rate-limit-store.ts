import type { Redis } from 'ioredis';

/** What one take left of a window: whether it was counted, what the window holds now, and when it ends. */
export interface RateLimitWindow {
  allowed: boolean;
  used: number;
  resetMs: number;
}

/**
 * One fixed window per key. A take that fits is counted whole; one that does not fit counts
 * nothing, so a refused 20-photo batch leaves the window as it found it. SET … PX with the time
 * left keeps the window's end where its first take put it.
 */
const TAKE = `
local ttl = redis.call('PTTL', KEYS[1])
local used = 0
if ttl > 0 then used = tonumber(redis.call('GET', KEYS[1])) else ttl = tonumber(ARGV[3]) end
local cost = tonumber(ARGV[1])
if used + cost > tonumber(ARGV[2]) then return {0, used, ttl} end
redis.call('SET', KEYS[1], used + cost, 'PX', ttl)
return {1, used + cost, ttl}
`;

/** Counters shared by every API replica through Redis. */
export class RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async take(key: string, cost: number, max: number, windowMs: number): Promise<RateLimitWindow> {
    const [allowed, used, resetMs] = (await this.redis.eval(TAKE, 1, `${this.prefix}${key}`, cost, max, windowMs)) as [
      number,
      number,
      number,
    ];
    return { allowed: allowed === 1, used, resetMs };
  }
}
