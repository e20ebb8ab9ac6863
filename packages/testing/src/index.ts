export { startStack, containerRuntimeAvailable, TEMPLATE_DATABASE, type RunningTestStack, type StartStackOptions } from './start-stack.js';
export type { StackInfo, S3Endpoint } from './stack-info.js';
export { createTestDatabase, createTestFsStore, createTestS3Store, uniqueName, uniqueQueuePrefix, type TestDatabase, type TestFsStore } from './isolation.js';
export { corpusDir, corpusFiles } from './corpus.js';
