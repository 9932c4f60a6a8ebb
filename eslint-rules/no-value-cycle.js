/**
 * Lint rule `local/no-value-cycle`: no cycle of value imports between the repository's modules.
 * In a value cycle one module of the ring runs before the other has defined its exports, so which
 * one breaks (a TDZ error, or `undefined` read at load) depends on which file is imported first.
 *
 * What counts as an edge: a static `import … from`, `export … from`, `export * from` of a file of
 * the repository. Not an edge: `import type` and `export type … from` (erased by tsc), and dynamic
 * `import()` (it runs after both modules have loaded). `import { type A } from` IS an edge:
 * with `verbatimModuleSyntax` it compiles to `import {} from`, which still runs the module.
 *
 * How: each file's imports are read once per ESLint process with TypeScript's parser (syntax only)
 * and resolved by eslint-resolver.cjs; the strongly connected components of that graph come from
 * Tarjan's algorithm, run from each linted file over the files not seen yet, so the whole tree is
 * walked once. An import is reported when its target is in the linted file's component, with one
 * path back. Kept in-house rather than eslint-plugin-import-x's `no-cycle`, which resolves through
 * a native binding (unrs-resolver). An editor's long-lived ESLint sees other files' later edits
 * after a restart.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const require = createRequire(import.meta.url);
const { resolve } = require('../eslint-resolver.cjs');
const ROOT = path.dirname(path.dirname(fs.realpathSync(new URL(import.meta.url).pathname)));

/** The repository file `source` names from `file`, or null (a package, a builtin, not found). */
function target(source, file) {
  const found = resolve(source, file);
  if (!found.found || !found.path || !/\.[cm]?ts$/.test(found.path)) return null;
  const real = fs.realpathSync(found.path);
  return real.startsWith(ROOT + path.sep) && !real.includes(`${path.sep}node_modules${path.sep}`) ? real : null;
}

const edges = new Map(); // file → the repository files it imports as values
function valueImports(file) {
  let out = edges.get(file);
  if (out) return out;
  out = [];
  edges.set(file, out);
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const st of sf.statements) {
    let typeOnly = null; // null: not an import or re-export
    if (ts.isImportDeclaration(st)) typeOnly = st.importClause?.isTypeOnly === true;
    else if (ts.isExportDeclaration(st)) typeOnly = st.isTypeOnly;
    if (typeOnly !== false || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const to = target(st.moduleSpecifier.text, file);
    if (to) out.push(to);
  }
  return out;
}

// Tarjan's state, kept across linted files: a file visited once has its component for good.
const order = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const componentOf = new Map();
function strongConnect(file) {
  order.set(file, order.size);
  low.set(file, order.get(file));
  stack.push(file);
  onStack.add(file);
  for (const next of valueImports(file)) {
    if (!order.has(next)) {
      strongConnect(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file), order.get(next)));
    }
  }
  if (low.get(file) !== order.get(file)) return;
  const component = new Set();
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.add(member);
  } while (member !== file);
  for (const m of component) componentOf.set(m, component);
}

/** The shortest value-import path from `from` to `to` inside their component (both included). */
function pathBack(from, to, component) {
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === to) break;
    for (const next of valueImports(file)) {
      if (component.has(next) && !prev.has(next)) {
        prev.set(next, file);
        queue.push(next);
      }
    }
  }
  const steps = [];
  for (let at = to; at !== null && at !== undefined; at = prev.get(at)) steps.unshift(path.relative(ROOT, at));
  return steps;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'no cycle of value imports (type-only imports are allowed)' },
    schema: [],
    messages: {
      cycle: 'value import cycle: {{ring}} (make one side `import type`, or move what both need to a module of its own)',
    },
  },
  create(context) {
    if (!fs.existsSync(context.filename)) return {}; // text from stdin: no place in the graph
    const file = fs.realpathSync(context.filename);
    const check = (node) => {
      if (node.importKind === 'type' || node.exportKind === 'type' || !node.source) return;
      const to = target(node.source.value, file);
      if (!to) return;
      if (!order.has(file)) strongConnect(file);
      const component = componentOf.get(file);
      if (!component.has(to)) return;
      const ring = [path.relative(ROOT, file), ...pathBack(to, file, component)].join(' → ');
      context.report({ node, messageId: 'cycle', data: { ring } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default { rules: { 'no-value-cycle': rule } };
