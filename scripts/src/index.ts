export { startEmbeddedStack, type EmbeddedStack, type EmbeddedStackOptions } from './embedded/stack.js';
export { startEmbeddedPostgres, ensureDatabase, type RunningPostgres } from './embedded/postgres.js';
export { startEmbeddedRedis, redisServerBinary, MissingRedisError, type RunningRedis } from './embedded/redis.js';
export { freePort, isAlive, isPortOpen, waitUntil } from './embedded/processes.js';
export { startLocalS3, type LocalS3 } from './embedded/s3.js';
export { startStallingProxy, type StallingProxy } from './faults/stalling-proxy.js';
