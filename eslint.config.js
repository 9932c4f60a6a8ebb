// Flat config: typescript-eslint's recommended rules (type-aware linting is left to `tsc`), and
// the layers of docs/architecture.md ("Layers") enforced by eslint-plugin-boundaries.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';
import local from './eslint-rules/no-value-cycle.js';

/** Each layer and what it may import (besides itself and packages). */
const LAYERS = {
  domain: { pattern: 'src/domain', allow: [] },
  config: { pattern: 'config', allow: [] },
  db: { pattern: 'db', allow: ['config'] },
  chain: { pattern: 'src/chain', allow: ['domain', 'infra'] },
  infra: { pattern: 'src/infra', allow: ['config'] },
  services: { pattern: 'src/services', allow: ['domain', 'db', 'chain', 'infra', 'config'] },
  jobs: { pattern: 'jobs', allow: ['services', 'domain', 'config', 'infra'], allowTypes: ['db', 'chain'] },
  api: { pattern: 'src/api', allow: ['services', 'domain', 'infra'], allowTypes: ['chain', 'config'] },
  features: { pattern: 'src/features', allow: ['api', 'services', 'jobs', 'domain', 'chain', 'infra', 'config'], allowTypes: ['db'] },
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: ['src/**/*.ts', 'jobs/**/*.ts', 'db/**/*.ts', 'config/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { [`${import.meta.dirname}/eslint-resolver.cjs`]: {} },
      'boundaries/elements': Object.entries(LAYERS).map(([type, l]) => ({ type, pattern: l.pattern })),
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: Object.entries(LAYERS).flatMap(([type, l]) => [
            { from: { element: { type } }, allow: { to: { element: { types: { anyOf: [type, ...l.allow] } } } } },
            ...(l.allowTypes
              ? [{ from: { element: { type } }, allow: { to: { element: { types: { anyOf: l.allowTypes } } }, dependency: { kind: 'type' } } }]
              : []),
          ]),
        },
      ],
    },
  },
  {
    // No value import cycles anywhere in the tree; type-only ones are fine (eslint-rules/).
    files: ['**/*.ts'],
    plugins: { local },
    rules: { 'local/no-value-cycle': 'error' },
  },
  {
    // The domain is pure: no I/O of any kind (docs/architecture.md, "Layers").
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['node:fs*', 'node:net', 'node:http*', 'node:child_process', 'node:dgram', 'node:worker_threads', 'fs', 'net', 'http',
            'ioredis', 'bullmq', 'kysely', 'pg', 'better-sqlite3', 'fastify', 'pino', 'litesvm', 'ws'],
          message: 'src/domain is pure: no I/O imports (docs/architecture.md, "Layers")',
        }],
      }],
    },
  },
  {
    files: ['bench/**', 'test/**', 'scripts/**', 'db/migrate.cli.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['eslint-resolver.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', exports: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['eslint-rules/**/*.js'],
    languageOptions: { globals: { URL: 'readonly' } },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
