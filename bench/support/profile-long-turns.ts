/**
 * The longest busy stretches of a V8 CPU profile (`node --cpu-prof`): runs of samples with no
 * `(idle)` between them, i.e. turns of the event loop that held it. For each turn over
 * `minMs`, its length and the functions it spent its time in, inclusive (a caller counts its
 * callees), which names what held the loop. Issue 31: the drain's rare 120 ms turns.
 * `npx tsx bench/support/profile-long-turns.ts file.cpuprofile [minMs] [top] [fromUs toUs]` (the
 * window the settlement bench prints as `drain window (µs)`).
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    ? `${url
        .replace(/^file:\/\//, '')
        .replace(/.*node_modules\//, '~/')
        .replace(process.cwd() + '/', '')}:${lineNumber + 1}`
    : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
}

export function longTurns(file: string, minMs = 50, top = 12, window?: { fromUs: number; toUs: number }): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const lines: string[] = [];
  let at = profile.startTime;
  let turn: Array<{ id: number; dt: number }> = [];
  let turnStart = at;
  const flush = (end: number) => {
    const ms = (end - turnStart) / 1000;
    if (ms >= minMs && (!window || (turnStart >= window.fromUs && turnStart <= window.toUs))) {
      const inclusive = new Map<string, number>();
      for (const { id, dt } of turn) {
        const seen = new Set<string>();
        for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
          const name = frameName(byId.get(n)!);
          if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
          seen.add(name);
        }
      }
      lines.push(`turn of ${ms.toFixed(1)} ms at ${(turnStart / 1000).toFixed(0)} ms (${turn.length} samples):`);
      for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
        lines.push(`  ${(us / 1000).toFixed(1).padStart(7)} ms  ${name}`);
    }
    turn = [];
  };
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (byId.get(id)!.callFrame.functionName === '(idle)') {
      if (turn.length > 0) flush(at);
      turnStart = at;
    } else turn.push({ id, dt: profile.timeDeltas[i + 1] ?? 0 });
  });
  if (turn.length > 0) flush(at);
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-long-turns.ts file.cpuprofile [minMs] [top]');
  const [from, to] = [process.argv[5], process.argv[6]];
  const window = from && to ? { fromUs: Number(from), toUs: Number(to) } : undefined;
  console.log(longTurns(file, Number(process.argv[3] ?? 50), Number(process.argv[4] ?? 12), window).join('\n'));
}
