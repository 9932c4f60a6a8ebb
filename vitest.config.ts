import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages (packages/*) are imported by their TypeScript sources: the "pmx-source"
// export condition, as in tsconfig.json's customConditions; the built daemon uses their dist/.
const conditions = ['pmx-source', ...defaultServerConditions];

// Integration tests share Redis, PostgreSQL and the ports of the embedded cluster, so files run
// in a small pool; each test uses its own key prefix, database file and ports where it can.
// `isolate: false`: a worker imports the daemon's module graph once for all the files it runs,
// not once per file. Importing it took two thirds of a typical integration file's time (7.8 s of
// import for 3.4 s of tests); test/family-b + test/api went from 149 s to 62 s. Files therefore
// must leave no global state behind (timers, process listeners, env): each restores what it changes.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['pmx-source'] } },
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'daemon', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'programs', include: ['packages/programs/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'local-cluster', include: ['packages/local-cluster/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'client', include: ['packages/client/test/**/*.test.ts'] } },
    ],
  },
});
