// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

const SERVER_MODULES = [
  'express',
  'ioredis',
  'type-graphql',
  'reflect-metadata',
  'graphql',
  'graphql-scalars',
  'ajv',
  'pino',
  'fs',
  'http',
  'https',
  'net',
  'child_process',
  'worker_threads',
];

module.exports = tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'coverage/**', '.scratch/**', '*-tmp.ts', 'packages/client/src/schema.ts', 'src/contract/schema.ts', 'packages/*/dist/**', 'src/eval/neural/kernel/**', 'eslint.config.js', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // STYLE.md §1: the rules core and the evaluator are pure — no server, storage or I/O modules.
    files: ['src/engine/**/*.ts', 'src/eval/**/*.ts', 'src/diagram/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: SERVER_MODULES.map((name) => ({ name, message: 'the core is pure: no I/O or server modules' })),
          patterns: [
            { group: ['@apollo/*', '@as-integrations/*', 'node:*'], message: 'the core is pure: no I/O or server modules' },
            { group: ['**/service/**', '**/http/**', '**/graphql/**'], message: 'the core does not depend on outer layers' },
          ],
        },
      ],
    },
  },
);
