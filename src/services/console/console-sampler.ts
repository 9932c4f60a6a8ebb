/**
 * Turns this process's Prometheus counters into the console's per-minute samples
 * (console_samples, one row per node and minute), so that an operator without Prometheus sees
 * the last hours in /admin. Once a minute it reads the registry — HTTP requests by status class,
 * orders placed, fills matched, fills settled and their match → settled latency (p50/p99 from the
 * histogram's buckets: the upper bound of the bucket the percentile falls in), queue depth — and
 * writes the minute's difference from the last reading. Every process samples what it counts
 * (an API node its HTTP, a matcher its orders and fills, a worker its settlements); the read sums
 * nodes. Rows older than the retention are pruned by the same timer.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { pruneSamples, upsertSample } from '../../../db/repositories/console-samples.repository.js';
import type { Database } from '../../../db/schema.js';

const MINUTE_MS = 60_000;
const PRUNE_EVERY = 10; // minutes

type Series = Array<{ labels: Record<string, string | number>; value: number; metricName?: string }>;

/** Cumulative totals read from the registry; a minute is the difference of two readings. */
export interface Totals {
  http: number;
  http4xx: number;
  http5xx: number;
  orders: number;
  fillsMatched: number;
  /** Cumulative count per latency bucket upper bound (seconds; Infinity last). */
  settleBuckets: Array<[number, number]>;
  queueDepth: number;
}

async function series(registry: Registry, name: string): Promise<Series> {
  const metric = registry.getSingleMetric(name);
  return metric ? ((await metric.get()).values as Series) : [];
}

export async function readTotals(registry: Registry): Promise<Totals> {
  const http = (await series(registry, 'pmx_http_request_duration_seconds')).filter((v) => v.metricName?.endsWith('_count'));
  const status = (v: Series[number]) => Number(v.labels.status);
  const sum = (values: Series) => values.reduce((s, v) => s + v.value, 0);
  const orders = (await series(registry, 'pmx_clob_orders_total')).filter((v) => v.labels.result === 'placed');
  const matched = (await series(registry, 'pmx_clob_fill_transitions_total')).filter(
    (v) => v.labels.to === 'matched' && v.labels.from === 'none',
  );
  const buckets = (await series(registry, 'pmx_clob_fill_settle_latency_seconds'))
    .filter((v) => v.metricName?.endsWith('_bucket'))
    .map((v) => [v.labels.le === '+Inf' ? Infinity : Number(v.labels.le), v.value] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const depth = (await series(registry, 'pmx_queue_jobs')).filter((v) =>
    ['waiting', 'active', 'delayed', 'prioritized'].includes(String(v.labels.state)),
  );
  return {
    http: sum(http),
    http4xx: sum(http.filter((v) => status(v) >= 400 && status(v) < 500)),
    http5xx: sum(http.filter((v) => status(v) >= 500)),
    orders: sum(orders),
    fillsMatched: sum(matched),
    settleBuckets: buckets,
    queueDepth: sum(depth),
  };
}

/** The q-quantile (ms) of the observations between two readings of a cumulative histogram; null when none. */
export function quantileMs(before: Array<[number, number]>, after: Array<[number, number]>, q: number): number | null {
  const delta = after.map(([le, count]) => [le, count - (before.find(([b]) => b === le)?.[1] ?? 0)] as [number, number]);
  const total = delta.at(-1)?.[1] ?? 0;
  if (total <= 0) return null;
  const finite = delta.filter(([le]) => Number.isFinite(le));
  const hit = delta.find(([, cumulative]) => cumulative >= q * total);
  const le = hit && Number.isFinite(hit[0]) ? hit[0] : (finite.at(-1)?.[0] ?? 0);
  return Math.round(le * 1000);
}

export function minuteRow(nodeId: string, minute: string, before: Totals, after: Totals) {
  const settled = (after.settleBuckets.at(-1)?.[1] ?? 0) - (before.settleBuckets.at(-1)?.[1] ?? 0);
  return {
    node_id: nodeId,
    minute,
    http_requests: after.http - before.http,
    http_4xx: after.http4xx - before.http4xx,
    http_5xx: after.http5xx - before.http5xx,
    orders: after.orders - before.orders,
    fills_matched: after.fillsMatched - before.fillsMatched,
    fills_settled: settled,
    settle_p50_ms: quantileMs(before.settleBuckets, after.settleBuckets, 0.5),
    settle_p99_ms: quantileMs(before.settleBuckets, after.settleBuckets, 0.99),
    queue_depth: after.queueDepth,
  };
}

export class ConsoleSampler {
  private last?: Totals;
  private timer?: NodeJS.Timeout;
  private ticks = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly registry: Registry,
    private readonly nodeId: string,
    private readonly log: Logger,
    private readonly retentionMs: number,
  ) {}

  /** Takes the first reading now and samples at every minute's start from then on. */
  async start(): Promise<void> {
    this.last = await readTotals(this.registry);
    const arm = () => {
      this.timer = setTimeout(() => void this.sample().finally(arm), MINUTE_MS - (Date.now() % MINUTE_MS) + 50);
      this.timer.unref();
    };
    arm();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** Writes the minute that just ended (the one before `now`). */
  async sample(now = Date.now()): Promise<void> {
    try {
      const totals = await readTotals(this.registry);
      const minute = new Date(Math.floor(now / MINUTE_MS) * MINUTE_MS - MINUTE_MS).toISOString();
      await upsertSample(this.db, minuteRow(this.nodeId, minute, this.last ?? totals, totals));
      this.last = totals;
      if (++this.ticks % PRUNE_EVERY === 1) await pruneSamples(this.db, new Date(now - this.retentionMs).toISOString());
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'console sample not written; the next minute carries it');
    }
  }
}
