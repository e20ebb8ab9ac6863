export { loadConfig, ConfigError } from './config.js';
export type {
  Config,
  StorageConfig,
  AuthConfig,
  PaymentsConfig,
  ImageModelConfig,
  CutoutModelConfig,
  LoadConfigOptions,
  RequiredVariable,
} from './config.js';
export { envSchema, type Env, type WorkerCpuPriority } from './env-schema.js';
