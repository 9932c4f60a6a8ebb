/**
 * The orderbook's metrics (Family C), in the daemon's registry. Counters and histograms are
 * incremented where each thing happens (order intake, the matcher's batches, the leases, the
 * settlement keeper); the gauges are read at scrape time: fills and markets by status from the
 * database (any API node reports the cluster's state; one snapshot per 500 ms), markets owned and
 * book depth from this process's matcher. Every label set is bounded: statuses, outcomes and
 * reason classes are closed lists, and the only market label is on the book-depth gauges, limited
 * to the BOOK_DEPTH_MARKETS busiest markets this node's matcher owns.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Book-depth gauges carry at most this many markets per node (the ones with most resting orders). */
export const BOOK_DEPTH_MARKETS = 20;

/** The cluster's orderbook at scrape time (src/services/family-c/clob-counts.service.ts). */
export type ClobCountsSource = () => Promise<{
  fills: Array<{ status: string; count: number }>;
  /** Seconds since the oldest fill not settled yet (matched, settling, retrying) was matched; null: none. */
  oldestUnsettledSeconds: number | null;
  markets: Array<{ status: string; count: number }>;
}>;

/** One side of an owned market's book: its best price and the size of its best levels. */
export interface BookSideDepth {
  marketId: string;
  outcome: 'yes' | 'no';
  side: 'bid' | 'ask';
  bestPriceBps: number;
  /** Outcome tokens (raw units) resting in the best levels. */
  size: number;
}

/** This process's matcher at scrape time (src/services/family-c/matcher/matcher-metrics.ts). */
export type OwnedBooksSource = () => { owned: number; depth: BookSideDepth[] };

export interface ClobMetrics {
  /** Orders by result: `placed`, or `rejected` with a reason class (orders/order-results.ts). */
  orders: Counter<'result' | 'reason'>;
  /** Fills that moved from one status to another (`none` → `matched` for a new fill). */
  fillTransitions: Counter<'from' | 'to'>;
  /** Seconds from a fill's match to its settlement. */
  settleLatency: Histogram;
  /** Settlement transactions by how they ended: confirmed, refused (a fill named by the chain), abandoned, halted. */
  settleTransactions: Counter<'outcome'>;
  batchSize: Histogram;
  batchDuration: Histogram;
  /** Market leases this node took: `free` (nobody held it), `dead_holder` (a crashed process on this host). */
  leaseTakeovers: Counter<'from'>;
  leasesLost: Counter;
  setCountsSource(source: ClobCountsSource): void;
  setOwnedBooksSource(source: OwnedBooksSource): void;
}

export function createClobMetrics(registry: Registry): ClobMetrics {
  const registers = [registry];
  let counts: ClobCountsSource | undefined;
  let snapshot: { at: number; value: Promise<Awaited<ReturnType<ClobCountsSource>> | undefined> } | undefined;
  // A database away leaves these gauges out of the scrape (pmx_ready_check says so), not the scrape failing.
  const readCounts = () => {
    if (!counts) return undefined;
    if (!snapshot || Date.now() - snapshot.at > 500) snapshot = { at: Date.now(), value: counts().catch(() => undefined) };
    return snapshot.value;
  };
  new Gauge({
    name: 'pmx_clob_fills',
    help: 'Orderbook fills by status (matched, settling, retrying, settled, failed, failed_insufficient_balance)',
    labelNames: ['status'],
    registers,
    async collect() {
      this.reset();
      const value = await readCounts();
      if (!value) return;
      for (const { status, count } of value.fills) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'pmx_clob_oldest_unsettled_fill_seconds',
    help: 'Age of the oldest fill not settled yet (0 when every fill is settled or failed; its last value while the database is away)',
    registers,
    async collect() {
      const value = await readCounts();
      if (value) this.set(value.oldestUnsettledSeconds ?? 0);
    },
  });
  new Gauge({
    name: 'pmx_clob_markets',
    help: 'Orderbook markets by status (creating, active, paused, resolved)',
    labelNames: ['status'],
    registers,
    async collect() {
      this.reset();
      const value = await readCounts();
      if (!value) return;
      for (const { status, count } of value.markets) this.set({ status }, count);
    },
  });
  let books: OwnedBooksSource | undefined;
  new Gauge({
    name: 'pmx_clob_markets_owned',
    help: "Orderbook markets this node's matcher owns (holds the lease and the epoch of)",
    registers,
    collect() {
      if (books) this.set(books().owned);
    },
  });
  const depthGauge = (name: string, help: string, value: (d: BookSideDepth) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['market', 'outcome', 'side'],
      registers,
      collect() {
        if (!books) return;
        this.reset();
        for (const d of books().depth) this.set({ market: d.marketId, outcome: d.outcome, side: d.side }, value(d));
      },
    });
  depthGauge(
    'pmx_clob_book_best_price_bps',
    `Best bid and ask of the ${BOOK_DEPTH_MARKETS} busiest markets this node owns (absent: that side is empty)`,
    (d) => d.bestPriceBps,
  );
  depthGauge(
    'pmx_clob_book_depth',
    `Outcome tokens (raw units) resting in the best 5 levels of each side, for the ${BOOK_DEPTH_MARKETS} busiest markets this node owns`,
    (d) => d.size,
  );
  return {
    orders: new Counter({
      name: 'pmx_clob_orders_total',
      help: 'Orders submitted to POST /v2/clob/orders by result (placed, rejected) and reason class of a rejection',
      labelNames: ['result', 'reason'],
      registers,
    }),
    fillTransitions: new Counter({
      name: 'pmx_clob_fill_transitions_total',
      help: 'Fill status changes (from none: fills matched)',
      labelNames: ['from', 'to'],
      registers,
    }),
    settleLatency: new Histogram({
      name: 'pmx_clob_fill_settle_latency_seconds',
      help: 'Seconds from a fill being matched to it being settled on chain',
      buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
      registers,
    }),
    settleTransactions: new Counter({
      name: 'pmx_clob_settle_transactions_total',
      help: 'Settlement transactions by outcome: confirmed, refused (the chain refused a fill), abandoned (never landed), halted (stopped by a pause or resolution)',
      labelNames: ['outcome'],
      registers,
    }),
    batchSize: new Histogram({
      name: 'pmx_clob_matcher_batch_size',
      help: 'Operations (orders, cancels, sweeps) committed together in one matcher batch',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers,
    }),
    batchDuration: new Histogram({
      name: 'pmx_clob_matcher_batch_duration_seconds',
      help: "Seconds one matcher batch took, from its start to its commit (or its failure's recovery)",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    leaseTakeovers: new Counter({
      name: 'pmx_clob_lease_takeovers_total',
      help: 'Market leases this node took over, by whom it took them from (free, dead_holder)',
      labelNames: ['from'],
      registers,
    }),
    leasesLost: new Counter({
      name: 'pmx_clob_leases_lost_total',
      help: 'Market leases this node failed to renew (it stalled past the lease, or Redis was away)',
      registers,
    }),
    setCountsSource(next) {
      counts = next;
      snapshot = undefined;
    },
    setOwnedBooksSource(next) {
      books = next;
    },
  };
}
