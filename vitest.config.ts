import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests run workspace packages from their TypeScript source; built runs use dist. An alias rather
// than an export condition, because vitest's globalSetup ignores custom ssr conditions
// (vitest-dev/vitest#9429).
const root = import.meta.dirname;
const workspaceSources = readdirSync(path.join(root, 'packages')).map((name) => ({
  name,
  dir: path.join(root, 'packages', name),
}));
// A subpath export (`@prodshot/imaging/input`) is the folder of that name with its own index.ts.
const resolve = {
  alias: workspaceSources.flatMap(({ name, dir }) => [
    { find: new RegExp(`^@prodshot/${name}$`), replacement: path.join(dir, 'src', 'index.ts') },
    { find: new RegExp(`^@prodshot/${name}/([a-z-]+)$`), replacement: path.join(dir, 'src', '$1', 'index.ts') },
  ]),
};

export default defineConfig({
  resolve,
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['{apps,packages}/*/src/**/*.test.ts', 'scripts/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'apps/web/**', '**/node_modules/**', '**/dist/**'],
          testTimeout: 20_000,
        },
      },
      {
        resolve,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['{apps,packages}/*/src/**/*.int.test.ts', 'scripts/src/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          globalSetup: ['packages/testing/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      {
        // Component tests of the web app: React in jsdom, no server.
        resolve,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.tsx'],
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
      {
        // The built stack driven in Debian's Chromium, one file at a time, after integration.
        resolve,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['apps/web/e2e/**/*.e2e.test.ts'],
          globalSetup: ['apps/web/e2e/support/shared-stack.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
