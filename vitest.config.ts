import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages (packages/*) are imported by their TypeScript sources: the "pmx-source"
// export condition, as in tsconfig.json's customConditions; the built daemon uses their dist/.
const conditions = ['pmx-source', ...defaultServerConditions];

// Integration tests share Redis, PostgreSQL and the ports of the embedded cluster, so files run
// in a small pool; each test uses its own key prefix, database file and ports where it can.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['pmx-source'] } },
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'daemon', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'programs', include: ['packages/programs/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'local-cluster', include: ['packages/local-cluster/test/**/*.test.ts'] } },
    ],
  },
});
