#!/usr/bin/env node
/**
 * `npm start` runs the compiled JavaScript in dist/ (transpiling src with tsx at every start cost
 * 1.2–1.4 s). This compiles first when dist/ is missing or older than any source file, so a fresh
 * clone, a `git pull` or a local edit never starts stale code. Runs as `prestart` and `prepare`.
 * The workspace packages build first (each into its own dist/), in dependency order: the daemon's
 * build resolves `@pmx/programs` and `@pmx/local-cluster` to their compiled output.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const PACKAGES = ['packages/programs', 'packages/local-cluster']; // dependency order
const inputs = [
  'src',
  'jobs',
  'db',
  'config',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  ...PACKAGES.flatMap((p) => [`${p}/src`, `${p}/package.json`, `${p}/tsconfig.build.json`]),
];

function newestMtime(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file shows as a newer directory
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sources = Math.max(...inputs.map((p) => newestMtime(path.join(root, p))));
if (built >= sources) process.exit(0);

console.error('compiling to dist/ (first start, or the sources changed)…');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
for (const project of [...PACKAGES, '.']) {
  fs.rmSync(path.join(root, project, 'dist'), { recursive: true, force: true }); // no stale files of deleted sources
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(project, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`the TypeScript build of ${project} failed (see above); \`npm run dev\` runs the sources directly`);
    process.exit(result.status ?? 1);
  }
}
fs.writeFileSync(stamp, new Date().toISOString());
