/**
 * Reads the account tables of docs/programs.md ("| Offset | Size | Field | Type | Meaning |"), so
 * tests can hold the code's layouts to what the document tells integrators.
 */
import { readFileSync } from 'node:fs';

const DOC = readFileSync(new URL('../docs/programs.md', import.meta.url), 'utf8').split('\n');

export interface DocRow {
  offset: number;
  size: number;
  /** The field's name as the document spells it (snake_case). */
  field: string;
}

/** The table under the heading `#### <name>` of the section `## <section>`, and the size its heading states. */
export function docAccountTable(section: string, name: string): { size: number; rows: DocRow[] } {
  const start = DOC.findIndex((l) => l.startsWith(`## ${section}`));
  const at = DOC.findIndex((l, i) => i > start && new RegExp(`^#### ${name}\\b`).test(l));
  if (start < 0 || at < 0) throw new Error(`no table for ${section} / ${name} in docs/programs.md`);
  const size = Number(/(\d+) bytes/.exec(DOC[at]!)?.[1]);
  const rows: DocRow[] = [];
  for (let i = at + 1; i < DOC.length && !DOC[i]!.startsWith('#'); i++) {
    const cells = DOC[i]!.split('|').map((c) => c.trim());
    if (cells.length < 5 || !/^\d+$/.test(cells[1]!)) continue;
    // Sizes are written "8" or "4 + 320" (a string slot: length prefix + capacity).
    const bytes = cells[2]!.split('+').reduce((sum, part) => sum + Number(part.trim()), 0);
    rows.push({ offset: Number(cells[1]), size: bytes, field: cells[3]! });
  }
  return { size, rows };
}

export const camelCase = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Checks a code layout against the document's table: rows contiguous from 0, ending at the stated
 * size, and every named field at the layout's offset. Returns the mismatches (empty when they agree).
 */
export function layoutMismatches(
  table: { size: number; rows: DocRow[] },
  layout: { size: number; offsets: Readonly<Record<string, number>> },
): string[] {
  const out: string[] = [];
  let next = 0;
  for (const r of table.rows) {
    if (r.offset !== next) out.push(`${r.field}: documented at ${r.offset}, previous row ends at ${next}`);
    next = r.offset + r.size;
    if (r.field === 'padding' || r.field === 'reserved') continue;
    const at = layout.offsets[camelCase(r.field)];
    if (at !== r.offset) out.push(`${r.field}: documented at ${r.offset}, code at ${at}`);
  }
  if (next !== table.size) out.push(`rows end at ${next}, heading says ${table.size}`);
  if (layout.size !== table.size) out.push(`code size ${layout.size}, documented ${table.size}`);
  const documented = new Set(table.rows.map((r) => camelCase(r.field)));
  for (const f of Object.keys(layout.offsets)) if (!documented.has(f)) out.push(`${f}: in the code, not in the document`);
  return out;
}

/** The lines of the section `## <section>` (up to the next `## ` heading). */
function sectionLines(section: string): string[] {
  const start = DOC.findIndex((l) => l.startsWith(`## ${section}`));
  if (start < 0) throw new Error(`no section ${section} in docs/programs.md`);
  const end = DOC.findIndex((l, i) => i > start && l.startsWith('## '));
  return DOC.slice(start, end < 0 ? undefined : end);
}

/** The error table of a section: name → code. */
export function docErrorCodes(section: string): Record<string, number> {
  const lines = sectionLines(section);
  const from = lines.findIndex((l) => l.startsWith('### Errors'));
  const out: Record<string, number> = {};
  for (const l of lines.slice(from)) {
    const m = /^\| (\d+) \| (\w+) \|/.exec(l);
    if (m) out[m[2]!] = Number(m[1]);
  }
  return out;
}

/** The discriminator tables of a section: instruction or account name → hex (reserved ones included). */
export function docDiscriminators(section: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of sectionLines(section)) {
    const m = /^\| ([\w ()]+?) \| `([0-9a-f]{16})` \|/.exec(l);
    if (m) out[m[1]!.replace(/ \(reserved\)$/, '')] = m[2]!;
  }
  return out;
}
