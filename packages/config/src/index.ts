export { loadConfig, ConfigError } from './config.js';
export type {
  Config,
  StorageConfig,
  AuthConfig,
  PaymentsConfig,
  ImageModelConfig,
  LoadConfigOptions,
  RequiredVariable,
} from './config.js';
export { envSchema, type Env, type WorkerCpuPriority } from './env-schema.js';
