import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from './postgres.js';
import { startEmbeddedRedis, type RunningRedis } from './redis.js';

export interface EmbeddedStackOptions {
  dataDir: string;
  /** Start only what the environment does not already provide. */
  databaseUrl?: string | undefined;
  redisUrl?: string | undefined;
  postgresPort: number;
  redisPort: number;
  database: string;
  log?: (service: 'postgres' | 'redis', line: string) => void;
}

export interface EmbeddedStack {
  databaseUrl: string;
  redisUrl: string;
  postgres: RunningPostgres | null;
  redis: RunningRedis | null;
  stop(): Promise<void>;
}

/** Starts a real Postgres and a real Redis on loopback unless their URLs are given. */
export async function startEmbeddedStack(options: EmbeddedStackOptions): Promise<EmbeddedStack> {
  const log = options.log ?? (() => {});
  const [postgresResult, redisResult] = await Promise.allSettled([
    options.databaseUrl
      ? null
      : startEmbeddedPostgres({
          dataDir: path.join(options.dataDir, 'postgres'),
          port: options.postgresPort,
          database: options.database,
          log: (line) => log('postgres', line),
        }),
    options.redisUrl
      ? null
      : startEmbeddedRedis({
          dataDir: path.join(options.dataDir, 'redis'),
          port: options.redisPort,
          log: (line) => log('redis', line),
        }),
  ]);
  if (postgresResult.status === 'rejected' || redisResult.status === 'rejected') {
    // Never leave one service running when the other could not start.
    await Promise.allSettled([
      postgresResult.status === 'fulfilled' ? postgresResult.value?.stop() : undefined,
      redisResult.status === 'fulfilled' ? redisResult.value?.stop() : undefined,
    ]);
    throw postgresResult.status === 'rejected' ? postgresResult.reason : (redisResult as PromiseRejectedResult).reason;
  }
  const postgres = postgresResult.value;
  const redis = redisResult.value;
  return {
    databaseUrl: options.databaseUrl ?? postgres!.url,
    redisUrl: options.redisUrl ?? redis!.url,
    postgres,
    redis,
    stop: async () => {
      await Promise.allSettled([redis?.stop(), postgres?.stop()]);
    },
  };
}
