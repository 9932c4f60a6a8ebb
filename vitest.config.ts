import { defineConfig } from 'vitest/config';

// Integration tests share Redis, PostgreSQL and the ports of the embedded cluster, so files run
// in a small pool; each test uses its own key prefix, database file and ports where it can.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
