export { createRedisConnection, pingRedis, type ConnectionRole } from './connection.js';
export { QUEUE_NAMES, DEFAULT_JOB_OPTIONS, jobIds, type QueueName } from './queues.js';
export { JobProducer, JobTimeoutError, JobFailedError } from './producer.js';
