export { createRedisConnection, pingRedis, type ConnectionRole } from './connection.js';
export { QUEUE_NAMES, DEFAULT_JOB_OPTIONS, type QueueName } from './queues.js';
