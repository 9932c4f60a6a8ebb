/**
 * The top entries of a V8 CPU profile (`node --cpu-prof`): self time per function (name, file,
 * line), as a share of all samples. Used by bench/profile.ts; runnable on its own:
 * `npx tsx bench/support/profile-summary.ts file.cpuprofile [top]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** A profile frame as the bench tools print it: name, then the file (node_modules shortened, the tree's root cut) and line. */
export function frameName({ functionName, url, lineNumber }: { functionName: string; url: string; lineNumber: number }): string {
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '~/')
    .replace(process.cwd() + '/', '');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

/**
 * `window` (µs of CLOCK_MONOTONIC, which V8's profiler and `process.hrtime` share across
 * processes) keeps only the samples taken within it: the load, not the start-up.
 */
export function topSelfTime(file: string, top = 25, window?: { fromUs: number; toUs: number }): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    total += dt;
    const key = frameName(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts file.cpuprofile [top]');
  console.log(`${path.basename(file)}:\n${topSelfTime(file, Number(process.argv[3] ?? 25)).join('\n')}`);
}
