/**
 * The lint rule against value import cycles (eslint-rules/no-value-cycle.js), run through the
 * project's own eslint.config.js on small module rings written under data/ (git- and
 * lint-ignored, inside the repository as the rule only follows the repository's files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const FILES: Record<string, string> = {
  // a → b → c → a: values, closed by an inline `type` import (kept as `import {} from`).
  'a.ts': "import { b } from './b.js';\nexport const a = (): number => b;\n",
  'b.ts': "import { c } from './c.js';\nexport const b = 1 + c;\n",
  'c.ts': "import { type a } from './a.js';\nexport const c = 2;\nexport type A = typeof a;\n",
  // d ↔ e: one side type-only (`import type`), like book.ts ↔ match.ts.
  'd.ts': "import { e } from './e.js';\nexport const d = (): number => e;\n",
  'e.ts': "import type { d } from './d.js';\nexport const e = 3;\nexport type D = typeof d;\n",
  // f ↔ g: `export type … from` on one side, `export *` on the other.
  'f.ts': "export * from './g.js';\nexport const f = 4;\n",
  'g.ts': "export type { f } from './f.js';\nexport const g = 5;\n",
  // h ↔ i: a re-export of a value, and a dynamic import (runs after both modules have loaded).
  'h.ts': "export { i } from './i.js';\nexport const h = 6;\n",
  'i.ts': "export const i = 7;\nexport const later = async (): Promise<number> => (await import('./h.js')).h;\n",
  // j ↔ k: a value re-export on each side.
  'j.ts': "export { k } from './k.js';\nexport const j = 8;\n",
  'k.ts': "export { j } from './j.js';\nexport const k = 9;\n",
};

describe('lint: no value import cycles', () => {
  let dir: string;
  let found: Map<string, string[]>;

  beforeAll(async () => {
    fs.mkdirSync(path.join(ROOT, 'data'), { recursive: true });
    dir = fs.mkdtempSync(path.join(ROOT, 'data', 'lint-cycles-'));
    for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), text);
    const eslint = new ESLint({ cwd: ROOT, ignore: false });
    const results = await eslint.lintFiles(Object.keys(FILES).map((name) => path.join(dir, name)));
    const messages = (r: ESLint.LintResult) => r.messages.map((m) => `${m.ruleId}: ${m.message}`);
    found = new Map(results.map((r) => [path.basename(r.filePath), messages(r)]));
  }, 60_000);

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports every import of a value ring, with the ring, including an inline `type` import', () => {
    const rel = (name: string) => path.relative(ROOT, path.join(dir, name));
    const ring = [rel('a.ts'), rel('b.ts'), rel('c.ts'), rel('a.ts')].join(' → ');
    expect(found.get('a.ts')).toEqual([expect.stringContaining(`local/no-value-cycle: value import cycle: ${ring}`)]);
    expect(found.get('b.ts')).toEqual([expect.stringContaining('local/no-value-cycle')]);
    expect(found.get('c.ts')).toEqual([expect.stringContaining('local/no-value-cycle')]);
  });

  it('reports value re-exports (`export { x } from`) in a ring', () => {
    expect(found.get('j.ts')).toEqual([expect.stringContaining('local/no-value-cycle')]);
    expect(found.get('k.ts')).toEqual([expect.stringContaining('local/no-value-cycle')]);
  });

  it('allows rings closed by `import type`, `export type … from` or a dynamic import', () => {
    for (const name of ['d.ts', 'e.ts', 'f.ts', 'g.ts', 'h.ts', 'i.ts']) expect(found.get(name), name).toEqual([]);
  });
});
