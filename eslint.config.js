import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import path from 'node:path';

// Import direction between workspaces: apps and scripts build on packages; packages never reach up
// into an app or into scripts; a workspace reaches another by its package name, never by a relative
// path out of its own folder. scripts/src/workspace-graph.test.ts checks the whole graph (cycles,
// undeclared imports), which a per-file rule cannot. The typescript-eslint twin of
// no-restricted-imports, so a block that sets the core rule (apps/web's feature zones) adds to this.
const workspaceFolders = ['apps', 'packages'].flatMap((group) => readdirSync(path.join(import.meta.dirname, group)));
const outOfWorkspace = {
  regex: `^(\\.\\./)+((apps|packages|scripts)/|(${workspaceFolders.join('|')})/(src|e2e)/)`,
  message: 'Import another workspace by its package name (@prodshot/…), not by a path out of this one.',
};
const importDirection = (message) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    { patterns: [{ regex: '^@prodshot/(api|worker|web|scripts)(/|$)', message }, outOfWorkspace] },
  ],
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['packages/**/*.{ts,tsx,mts}'],
    rules: importDirection('A package never imports an app or scripts: move what both need into a package.'),
  },
  // typebox's default export is a namespace re-exported as default: the bundler keeps every builder of it,
  // so one schema module imported by the web put all of typebox in each page's first download.
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='typebox'] > ImportDefaultSpecifier",
          message:
            "Import { Type } from 'typebox', not its default export: the web's bundle would carry all of typebox.",
        },
      ],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'scripts/**/*.{ts,mts,mjs}'],
    rules: importDirection('Apps and scripts import packages only: move what they share into a package.'),
  },
  // API services are the use-cases: plain functions of their inputs and the repositories, testable
  // without HTTP. What is bound to Fastify (requests, replies, routes, plugins) lives in http/,
  // plugins/ and routes/, which import services, never the other way round.
  {
    files: ['apps/api/src/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(fastify|@fastify/.*)$',
              message: 'A service takes no Fastify types: move the HTTP part to http/.',
            },
            {
              regex: '^(\\.\\./)+(routes|plugins|http)/',
              message: 'A service imports no route, plugin or http/ helper: they call the service.',
            },
          ],
        },
      ],
    },
  },
  // Web import zones (bulletproof-react): a feature uses shared code (components/, hooks/, lib/), auth, and
  // another feature only through that feature's public index.ts; routes/ and app/ compose features and are
  // imported by nothing in a feature or in shared code. Tests compose screens as routes do, so they are exempt.
  {
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!auth/)[^./][^/]*/(?!index\\.js$)',
              message:
                "Another feature's internals: import its index.ts, or move the shared piece to components/, hooks/ or lib/.",
            },
            {
              regex: '^\\.\\./\\.\\./(routes|app|features)/',
              message: 'A feature never imports routes/ or app/ (and reaches other features as ../<feature>/index.js).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/*/*/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!auth/)[^./][^/]*/(?!index\\.js$)',
              message:
                "Another feature's internals: import its index.ts, or move the shared piece to components/, hooks/ or lib/.",
            },
            {
              regex: '^\\.\\./\\.\\./\\.\\./(routes|app|features)/',
              message: 'A feature never imports routes/ or app/ (and reaches other features as ../<feature>/index.js).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/{components,hooks,lib}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|routes|app)/',
              message: 'Shared code imports no feature, route or app module.',
            },
          ],
        },
      ],
    },
  },
);
