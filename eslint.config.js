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
  '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: '^@prodshot/(api|worker|web|scripts)(/|$)', message }, outOfWorkspace] }],
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
  {
    files: ['apps/**/*.{ts,tsx}', 'scripts/**/*.{ts,mts,mjs}'],
    rules: importDirection('Apps and scripts import packages only: move what they share into a package.'),
  },
);
