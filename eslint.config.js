import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
  // Web import zones (bulletproof-react): a feature uses shared code (components/, hooks/, lib/), auth, and
  // another feature only through that feature's public index.ts; routes/ and app/ compose features and are
  // imported by nothing in a feature or in shared code. Tests compose screens as routes do, so they are exempt.
  {
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^\\.\\./(?!auth/)[^./][^/]*/(?!index\\.js$)', message: "Another feature's internals: import its index.ts, or move the shared piece to components/, hooks/ or lib/." },
        { regex: '^\\.\\./\\.\\./(routes|app|features)/', message: 'A feature never imports routes/ or app/ (and reaches other features as ../<feature>/index.js).' },
      ] }],
    },
  },
  {
    files: ['apps/web/src/features/*/*/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^\\.\\./\\.\\./(?!auth/)[^./][^/]*/(?!index\\.js$)', message: "Another feature's internals: import its index.ts, or move the shared piece to components/, hooks/ or lib/." },
        { regex: '^\\.\\./\\.\\./\\.\\./(routes|app|features)/', message: 'A feature never imports routes/ or app/ (and reaches other features as ../<feature>/index.js).' },
      ] }],
    },
  },
  {
    files: ['apps/web/src/{components,hooks,lib}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+(features|routes|app)/', message: 'Shared code imports no feature, route or app module.' }] }],
    },
  },
);
