/** Reads samples out of a Prometheus text exposition (what GET /metrics answers). */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sample of `name` with exactly `labels` (an empty label counts as absent, as in Prometheus), or undefined. */
export function sample(text: string | Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const all = typeof text === 'string' ? parseSamples(text) : text;
  const wanted = Object.entries(labels).filter(([, v]) => v !== '');
  return all.find((s) => {
    const have = Object.entries(s.labels).filter(([, v]) => v !== '');
    return s.name === name && have.length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v);
  })?.value;
}
