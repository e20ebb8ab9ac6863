import { inject } from 'vitest';
import { createTestS3Store } from '@prodshot/testing';
import { describeObjectStoreContract } from './object-store-contract.test-support.js';

const stack = inject('stack');

// The same suite as the filesystem driver, against MinIO (containers) or s3rver (local mode).
describeObjectStoreContract(`S3 driver on ${stack.s3.kind}`, () => createTestS3Store(stack));
