// Flat config: typescript-eslint's recommended rules (type-aware linting is left to `tsc`), and
// the layers of docs/architecture.md ("Layers") enforced by eslint-plugin-boundaries.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';
import local from './eslint-rules/no-value-cycle.js';

/**
 * Each layer and what it may import (besides itself and npm packages). The workspace packages are
 * layers too: `programs` and `client` import nothing of ours, `local-cluster` only `programs`, and in the
 * daemon only the chain layer (its adapters) and the composition root reach the local cluster.
 */
const LAYERS = {
  programs: { pattern: 'packages/programs', allow: [] },
  'local-cluster': { pattern: 'packages/local-cluster', allow: ['programs'] },
  // What a bot or a web app installs alone: it imports nothing of ours (not even @pmx/programs).
  client: { pattern: 'packages/client', allow: [] },
  domain: { pattern: 'src/domain', allow: ['programs'] },
  config: { pattern: 'config', allow: [] },
  db: { pattern: 'db', allow: ['config', 'infra'] },
  chain: { pattern: 'src/chain', allow: ['domain', 'infra', 'programs', 'local-cluster'] },
  infra: { pattern: 'src/infra', allow: ['config'] },
  services: { pattern: 'src/services', allow: ['domain', 'db', 'chain', 'infra', 'config', 'programs'] },
  jobs: { pattern: 'jobs', allow: ['services', 'domain', 'config', 'infra', 'programs'], allowTypes: ['db', 'chain'] },
  api: { pattern: 'src/api', allow: ['services', 'domain', 'infra', 'programs'], allowTypes: ['chain', 'config'] },
  features: {
    pattern: 'src/features',
    allow: ['api', 'services', 'jobs', 'domain', 'chain', 'infra', 'config', 'programs', 'local-cluster'],
    allowTypes: ['db'],
  },
};

/** Outside a package, only its entry points (package.json "exports"): never its files. */
const NO_DEEP_PACKAGE_IMPORTS = {
  patterns: [
    {
      group: ['**/packages/*/src/**', '**/packages/*/dist/**', '@pmx/*/src/**', '@pmx/*/dist/**'],
      message: 'import a workspace package by its entry point (@pmx/programs, @pmx/local-cluster)',
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage', 'packages/*/dist', 'packages/client/src/generated'] },
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
    files: ['src/**/*.ts', 'jobs/**/*.ts', 'db/**/*.ts', 'config/**/*.ts', 'packages/*/src/**/*.ts'],
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
              ? [
                  {
                    from: { element: { type } },
                    allow: { to: { element: { types: { anyOf: l.allowTypes } } }, dependency: { kind: 'type' } },
                  },
                ]
              : []),
          ]),
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'jobs/**/*.ts', 'db/**/*.ts', 'config/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', NO_DEEP_PACKAGE_IMPORTS] },
  },
  {
    // A package's tests import its own sources, and other packages only by their entry points.
    files: ['packages/*/test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/../../../src/**', '**/../../../test/**', '@pmx/*/src/**'],
              message: "a package test imports its own package and other packages' entry points only",
            },
          ],
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:fs*',
                'node:net',
                'node:http*',
                'node:child_process',
                'node:dgram',
                'node:worker_threads',
                'fs',
                'net',
                'http',
                'ioredis',
                'bullmq',
                'kysely',
                'pg',
                'better-sqlite3',
                'fastify',
                'pino',
                'litesvm',
                'ws',
              ],
              message: 'src/domain is pure: no I/O imports (docs/architecture.md, "Layers")',
            },
            ...NO_DEEP_PACKAGE_IMPORTS.patterns,
          ],
        },
      ],
    },
  },
  {
    files: ['bench/**', 'test/**', 'scripts/**', 'db/migrate.cli.ts', 'packages/*/test/**', 'packages/*/bin/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['eslint-resolver.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', exports: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['eslint-rules/**/*.js'],
    languageOptions: { globals: { URL: 'readonly' } },
  },
  {
    files: ['scripts/**/*.mjs', 'packages/*/bin/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
