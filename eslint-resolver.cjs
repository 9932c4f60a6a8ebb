/**
 * Module resolver for the layer lint (eslint-plugin-boundaries): the sources import each other as
 * `./x.js` (NodeNext ESM) while the files are `./x.ts`. Packages are left to Node's resolution.
 * Kept in-house instead of eslint-import-resolver-typescript, whose native platform bindings the
 * registry mirror of these machines does not carry.
 */
const fs = require('node:fs');
const path = require('node:path');

exports.interfaceVersion = 2;
/** Workspace packages resolve to their sources, as tsconfig's "pmx-source" condition does. */
const WORKSPACE = {
  '@pmx/programs': 'packages/programs/src/index.ts',
  '@pmx/local-cluster': 'packages/local-cluster/src/index.ts',
  '@pmx/local-cluster/testing': 'packages/local-cluster/src/testing/index.ts',
};

exports.resolve = function resolve(source, file) {
  if (WORKSPACE[source]) return { found: true, path: path.join(__dirname, WORKSPACE[source]) };
  if (!source.startsWith('.')) {
    try {
      return { found: true, path: require.resolve(source, { paths: [path.dirname(file)] }) };
    } catch {
      return { found: true, path: null }; // a package or builtin: external, not a layer
    }
  }
  const base = path.resolve(path.dirname(file), source);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return { found: true, path: candidate };
  }
  return { found: false };
};
