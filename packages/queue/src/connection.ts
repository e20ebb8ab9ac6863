import { Redis, type RedisOptions } from 'ioredis';
import pTimeout from 'p-timeout';

export type ConnectionRole = 'producer' | 'consumer';

/**
 * ioredis connection with the settings BullMQ asks for: consumers (workers, queue events) block
 * on Redis and must retry forever (maxRetriesPerRequest null); producers (the API) give up after
 * one reconnect attempt while Redis is down, so a request gets a clear 503 instead of hanging.
 */
export function createRedisConnection(url: string, role: ConnectionRole, name?: string): Redis {
  const options: RedisOptions = {
    connectionName: name ? `prodshot:${name}` : undefined,
    maxRetriesPerRequest: role === 'consumer' ? null : 1,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  };
  return new Redis(url, options);
}

/** Round trip to Redis, for health checks; bounded so a dead Redis answers within the timeout. */
export async function pingRedis(redis: Redis, timeoutMs = 2_000): Promise<void> {
  const reply = await pTimeout(redis.ping(), {
    milliseconds: timeoutMs,
    message: `Redis did not answer within ${timeoutMs} ms`,
  });
  if (reply !== 'PONG') throw new Error(`Unexpected Redis reply: ${String(reply)}`);
}
