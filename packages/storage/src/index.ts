export * from './keys.js';
export * from './object-store.js';
export * from './signed-url.js';
export * from './renditions.js';
export * from './url-keys.js';
export { FsObjectStore, type FsStoreOptions } from './fs-store.js';
export { MinioObjectStore, type MinioStoreOptions } from './minio-store.js';
export {
  createObjectStore,
  resolveSigningSecret,
  loadOrCreateSecret,
  loadOrCreateFile,
  type CreateStoreOptions,
} from './create-store.js';
export { StorageTimeoutError, withTimeouts } from './timed-store.js';
export { waitUntilReady, type WaitOptions } from './wait-until-ready.js';
export * from './archive.js';
export * from './archive-links.js';
