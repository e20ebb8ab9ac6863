export { createRedisConnection, pingRedis, type ConnectionRole } from './connection.js';
export {
  QUEUE_NAMES,
  QUEUE_JOBS,
  JOB_QUEUE,
  DEFAULT_RETRY_POLICY,
  generationOrder,
  jobOptions,
  retryBackoff,
  RETRY_BACKOFF_TYPE,
  WORKER_SETTINGS,
  jobIds,
  QUEUE_ORDER,
  WEBHOOK_RETRY,
  webhookAttempts,
  webhookJobOptions,
  webhookRetryDelay,
  sameOrder,
  type QueueName,
  type QueueOrder,
  type RetryPolicy,
} from './queues.js';
export { JobProducer, JobTimeoutError, JobFailedError } from './producer.js';
export { registerQueueDepthGauge } from './metrics.js';
export { checkDependencies, createOpsServer, type DependencyChecks, type OpsServerOptions } from './ops-server.js';
export {
  isAllowedAddress,
  resolveWebhookTarget,
  WebhookUrlError,
  type WebhookTarget,
  type WebhookTargetPolicy,
} from './webhook-target.js';
