// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

// Specs beside the code, the test tiers and their fixtures, and the bench/demo scripts.
const TEST_AND_SCRIPT_FILES = ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts', 'demo/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'migrations/', 'data/', 'web/dist/', 'web/src/gql/', 'web/test-results/'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'demo/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // What the lint is for: promises nobody awaits or catches, and code nobody uses.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Off: Nest handlers, resolvers and lifecycle hooks are async to meet an interface that
      // expects a promise (ICommandHandler.execute...), whether or not their body awaits.
      '@typescript-eslint/require-await': 'off',
      // Rejecting with what was caught (unknown) passes an error on as it came, which is the intent.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // The console (React in the browser; its tests and bench run on Node).
    files: ['web/**/*.{ts,tsx,mts}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The CommonJS entry points (bin/, jest.config.js) and this file: plain JavaScript on Node.
    files: ['**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' } },
  },
  {
    files: TEST_AND_SCRIPT_FILES,
    rules: {
      // Off: tests and scripts read JSON off the wire (`any` from res.json(), JSON.parse) and
      // assert on it; typing every response body would be churn that the assertions already cover.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Off: `expect(obj.method).toHaveBeenCalled()` and jest.spyOn targets pass methods unbound on purpose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
