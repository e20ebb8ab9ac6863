export {
  startStack,
  testStackChoice,
  CONTAINER_IMAGES,
  TEMPLATE_DATABASE,
  type RunningTestStack,
  type StartStackOptions,
} from './start-stack.js';
export type { StackInfo, S3Endpoint } from './stack-info.js';
export {
  createTestDatabase,
  createTestFsStore,
  createTestS3Store,
  uniqueName,
  uniqueQueuePrefix,
  type TestDatabase,
  type TestFsStore,
} from './isolation.js';
export { startWorkerProcess, type WorkerProcess } from './worker-process.js';
export {
  createTestSessionKey,
  mintSessionToken,
  mintTemplateToken,
  testClerkId,
  testSessionKey,
  TEST_AUTHORIZED_PARTY,
  type MintSessionTokenOptions,
  type MintTemplateTokenOptions,
  type TestSessionKey,
} from './tokens.js';
export {
  parseStripeForm,
  startStripeFake,
  STRIPE_FIXTURES,
  stripeFixture,
  type StripeFake,
  type StripeFakeRequest,
} from './stripe-fake.js';
export { startStallingProxy, type StallingProxy } from '@prodshot/embedded';
export { startFlakyImageModel, type FlakyImageModel, type FlakyStyle } from './flaky-image-model.js';
export { readZip } from './zip.js';
export { startRestartableRedis, type RestartableRedis } from './restartable-redis.js';
export { startClerkFake, type ClerkFake, type ClerkFakeEmail, type ClerkFakeUser } from './clerk-fake.js';
export { testSellers, type LedgerMove, type TestSellers } from './sellers.js';
export { sunglassesOnPebbles, type RefusedProductPhoto } from './seller-photos.js';
