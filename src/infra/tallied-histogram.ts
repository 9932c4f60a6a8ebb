/**
 * A Prometheus histogram for a metric observed on every request (HTTP latency). prom-client's
 * Histogram spends about 1.5 µs per observation (it validates and hashes the labels, then finds
 * the bucket through number-keyed object properties), as much as a small route's handler. This
 * one keeps each label set's tallies in an array found by one Map lookup, and builds prom-client's
 * own export shape only when scraped, so `/metrics` prints exactly what prom-client printed.
 */
import type { MetricObjectWithValues, MetricValueWithName, Registry } from 'prom-client';

interface Tally<L extends string> {
  labels: Record<L, string>;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

export interface TalliedHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  buckets: readonly number[];
  registers: Registry[];
}

type Value<L extends string> = MetricValueWithName<L | 'le'> & { sharedLabels?: Partial<Record<L, string>> };

export class TalliedHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  private readonly bounds: readonly number[];
  private tallies = new Map<string, Tally<L>>();

  constructor(options: TalliedHistogramOptions<L>) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.bounds = [...options.buckets].sort((a, b) => a - b);
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  observe(labels: Record<L, string>, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\u0000`;
    let tally = this.tallies.get(key);
    if (!tally) {
      const copy = {} as Record<L, string>;
      for (const name of this.labelNames) copy[name] = String(labels[name]);
      tally = { labels: copy, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.tallies.set(key, tally);
    }
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    tally.counts[i]!++;
    tally.sum += value;
    tally.count++;
  }

  reset(): void {
    this.tallies = new Map();
  }

  /** What the registry prints: prom-client's shape, the label set as `sharedLabels` beside `le`. */
  async getForPromString(): Promise<MetricObjectWithValues<Value<L>>> {
    const values: Value<L>[] = [];
    const bucket = `${this.name}_bucket`;
    for (const t of this.tallies.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += t.counts[i]!;
        values.push({ labels: { le } as Value<L>['labels'], value: cumulative, metricName: bucket, sharedLabels: t.labels });
      });
      values.push({ labels: { le: '+Inf' } as Value<L>['labels'], value: t.count, metricName: bucket, sharedLabels: t.labels });
      values.push({ labels: {}, value: t.sum, metricName: `${this.name}_sum`, sharedLabels: t.labels });
      values.push({ labels: {}, value: t.count, metricName: `${this.name}_count`, sharedLabels: t.labels });
    }
    return { name: this.name, help: this.help, type: this.type as never, values, aggregator: this.aggregator, collect: () => undefined };
  }

  /** As prom-client's `get()`: each value's labels with the label set merged in. */
  async get(): Promise<MetricObjectWithValues<MetricValueWithName<L | 'le'>>> {
    const data = await this.getForPromString();
    const values = data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
    return { ...data, values };
  }
}
