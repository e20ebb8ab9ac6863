import { defineConfig } from 'vitest/config';

const resolve = { conditions: ['@prodshot/source'] };

export default defineConfig({
  resolve,
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['{apps,packages,scripts}/*/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'apps/web/**', '**/node_modules/**', '**/dist/**'],
          testTimeout: 20_000,
        },
      },
      {
        resolve,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['{apps,packages,scripts}/*/src/**/*.int.test.ts', 'scripts/src/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          globalSetup: ['packages/testing/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
