// Real Postgres, Redis and S3 on loopback, with no container runtime: what `npm start`, the bench,
// the soak and the local test stack run on, and the fault tools they put in front of them.
export { startEmbeddedStack, type EmbeddedStack, type EmbeddedStackOptions } from './stack.js';
export { startEmbeddedPostgres, ensureDatabase, type RunningPostgres } from './postgres.js';
export { startEmbeddedRedis, redisServerBinary, MissingRedisError, type RunningRedis } from './redis.js';
export { freePort, isAlive, isPortOpen, waitUntil } from './processes.js';
export { startLocalS3, type LocalS3 } from './s3.js';
export { startStallingProxy, type StallingProxy } from './stalling-proxy.js';
