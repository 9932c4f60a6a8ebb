/**
 * src/infra/hot-shapes.ts: once V8's plain-object root map has no room for more transitions
 * (the whole daemon's compiled schemas fill it), objects whose first key has no live transition
 * get a fresh hidden class each; the anchors keep the per-request ones shared. Checked with V8's
 * own %HaveSameMap in a child process (natives syntax), after filling the root map with 2,000
 * first keys seen once, as schema compilation does.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HOT_SHAPES = pathToFileURL(path.join(ROOT, 'src/infra/hot-shapes.ts')).href;

function probe(anchored: boolean): Record<string, boolean> {
  const script = `
    ${anchored ? `await import(${JSON.stringify(HOT_SHAPES)});` : ''}
    const keep = [];
    for (let i = 0; i < 2000; i++) { const o = {}; o['__seen_once_' + i] = i; keep.push(o); }
    const shared = (key, value) => { const a = {}; a[key] = value; const b = {}; b[key] = value; return %HaveSameMap(a, b); };
    console.log(JSON.stringify({ host: shared('host', 'x'), reqId: shared('reqId', 'req-1'), limit: shared('x-ratelimit-limit', 5), other: shared('not-anchored', 1) }));
  `;
  const args = ['--allow-natives-syntax', '--conditions=pmx-source', '--import', 'tsx', '--input-type=module', '-e', script];
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim()) as Record<string, boolean>;
}

describe('per-request hidden classes', () => {
  it('stay shared after the root map is full, for the anchored first keys', () => {
    expect(probe(true)).toEqual({ host: true, reqId: true, limit: true, other: false });
  });

  it('are fresh per object without the anchors (what the daemon paid)', () => {
    expect(probe(false)).toEqual({ host: false, reqId: false, limit: false, other: false });
  });
});
