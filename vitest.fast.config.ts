import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:fast`, the edit loop: the pure domain, the lint rules and the units that need
 * nothing but the test's own process (no Redis, PostgreSQL, cluster or daemon; an in-memory
 * SQLite at most), so no global setup. `npm test` runs them too. A file is listed here when it
 * needs no service: one that starts using one belongs to `npm test` only.
 */
export const FAST_TESTS = [
  'test/domain/**/*.test.ts',
  'test/lint/**/*.test.ts',
  'test/api/families.test.ts',
  'test/bench/cpu-accounting.test.ts',
  'test/chain/{legacy-message,public-url,rpc-retry}.test.ts',
  'packages/programs/test/**/*.test.ts', // the programs' client, math and primitives: all pure
  'packages/client/test/{encoding,errors,messages,order-message,signers}.test.ts', // @pmx/client's units (its e2e is test/e2e/client.e2e.test.ts)
  'test/config/config.test.ts',
  'test/db/statement-cache.test.ts',
  'test/family-a/{domain,inbound-credits}.test.ts',
  'test/family-b/decoded-market-cache.test.ts',
  'test/family-c/{order-presenter,ws-feeds.property,ws-hub}.test.ts',
  'test/infra/{coalescer,poll}.test.ts',
  'test/jobs/outbound-memo.test.ts',
];

// As in vitest.config.ts: the workspace packages by their TypeScript sources.
const conditions = ['pmx-source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['pmx-source'] } },
  test: {
    include: FAST_TESTS,
    testTimeout: 30_000,
    pool: 'threads',
    isolate: false, // as in vitest.config.ts: the modules are imported once per worker
    maxWorkers: 2,
    reporters: ['default'],
  },
});
