export { loadConfig } from './config.js';
export { ConfigError } from './config-error.js';
export { isLoopback } from './loopback.js';
export type {
  Config,
  StorageConfig,
  AuthConfig,
  PaymentsConfig,
  ImageModelConfig,
  CutoutModelConfig,
  LoadConfigOptions,
  RequiredVariable,
} from './config-types.js';
export { envSchema, type Env, type WorkerCpuPriority } from './env-schema.js';
