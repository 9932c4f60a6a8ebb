/**
 * What a V8 CPU profile (`node --cpu-prof`) shows in one window of time: the functions the
 * samples in it spent their time in, inclusive (a caller counts its callees) and self, and every
 * sample that stood for more than 3 ms (the thread was not sampled: it was off the CPU, or in a
 * GC pause the sampler could not enter). The windows come from the settlement bench with
 * `BENCH_SETTLE_WINDOW=1` (`loop held (µs): from to`, CLOCK_MONOTONIC µs as the profile's).
 * `npx tsx bench/support/profile-window.ts file.cpuprofile fromUs toUs [top]`.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { frameName } from './profile-summary.js';

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

const ms = (us: number) => (us / 1000).toFixed(1).padStart(7);

export function describeWindow(file: string, fromUs: number, toUs: number, top = 25): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number) => {
    const names: string[] = [];
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) names.push(frameName(byId.get(n)!.callFrame));
    return names;
  };
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  const long: string[] = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs || at > toUs) return;
    const dt = profile.timeDeltas[i + 1] ?? 0; // this sample stands until the next one
    const stack = stackOf(id);
    self.set(stack[0]!, (self.get(stack[0]!) ?? 0) + dt);
    for (const name of new Set(stack)) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    if (dt > 3000) long.push(`${ms(at - fromUs)} +${ms(dt).trim()} ms  ${stack.slice(0, 4).join(' < ')}`);
  });
  const ranked = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `${ms(us)} ms  ${name}`);
  return [
    `window of ${((toUs - fromUs) / 1000).toFixed(1)} ms`,
    'inclusive:',
    ...ranked(inclusive),
    'self:',
    ...ranked(self),
    'samples over 3 ms (at, length, stack):',
    ...long,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, from, to, top] = process.argv.slice(2);
  if (!file || !from || !to) throw new Error('usage: profile-window.ts file.cpuprofile fromUs toUs [top]');
  console.log(describeWindow(file, Number(from), Number(to), Number(top ?? 25)).join('\n'));
}
