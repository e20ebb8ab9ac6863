import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests that guard the money paths, for `npm run test:mutation` (StrykerJS): the ledger, the
 * dispatcher, the settlement code and the Stripe webhooks. Integration tests, on the same local
 * stack as `npm test`.
 */
export default mergeConfig(
  { resolve: base.resolve },
  defineConfig({
    test: {
      name: 'mutation',
      environment: 'node',
      include: [
        'packages/db/src/repositories/credits-repository.int.test.ts',
        'packages/db/src/settlement/settlement.int.test.ts',
        'packages/db/src/settlement/ledger-keys.test.ts',
        'apps/worker/src/handlers/product-shot.int.test.ts',
        'apps/worker/src/handlers/style-shot.int.test.ts',
        'apps/worker/src/dispatch.test.ts',
        'apps/worker/src/dispatch.int.test.ts',
        'apps/worker/src/pipeline/slot-lifecycle.int.test.ts',
        'apps/worker/src/handlers/sweep-stale-generations.int.test.ts',
        'apps/worker/src/handlers/style-recommendation.int.test.ts',
        'apps/api/src/routes/webhooks/stripe.int.test.ts',
        'apps/api/src/routes/payments/payments.int.test.ts',
        'apps/api/src/routes/images/idempotency.int.test.ts',
        'apps/api/src/routes/generations/iterate.int.test.ts',
        'apps/api/src/routes/batches/batches.int.test.ts',
        'apps/api/src/faults/money-race.int.test.ts',
      ],
      globalSetup: ['packages/testing/src/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      maxWorkers: 2,
    },
  }),
);
