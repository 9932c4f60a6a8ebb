/**
 * The daemon's Prometheus registry. One per process (tests create their own), so the HTTP
 * facade, the workers and the queue-depth collector report into the same place.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { createClobMetrics, type ClobMetrics } from './clob-metrics.js';
import { TalliedHistogram } from './tallied-histogram.js';

export type QueueDepthSource = () => Promise<Array<{ queue: string; state: string; count: number }>>;

/**
 * Platform money that needs an operator's eye, read from the database at scrape time (so any API
 * node reports the cluster's state): payouts waiting for funds, and Family A inbound transfers by
 * state (refunds split by their transaction's status: refund_pending, refund_confirmed, …).
 */
export type MoneySource = () => Promise<{
  awaitingFunds: Array<{ purpose: string; count: number; oldestSeconds: number }>;
  transfers: Array<{ state: string; count: number }>;
}>;

/** The readiness checks of GET /ready (src/services/readiness.service.ts), each ok or not. */
export type ReadinessSource = () => Promise<Record<string, { ok: boolean }>>;

/** This node's WebSocket hub at scrape time (src/services/family-c/ws/ws-hub.ts `stats()`). */
export type WebSocketSource = () => {
  connections: { market: number; user: number };
  owners: number;
  feeds: { subscriptions: number };
  unsent: number;
};

export interface DaemonMetrics {
  registry: Registry;
  /** Observed on every request: a TalliedHistogram (prom-client's costs ~1.5 µs per observation). */
  httpDuration: TalliedHistogram<'method' | 'route' | 'status'>;
  jobOutcomes: Counter<'queue' | 'job' | 'outcome'>;
  jobDuration: Histogram<'queue' | 'job'>;
  processErrors: Counter<'kind'>;
  /** Connections this node closed, by close code (ws-protocol.ts WS_CLOSE): 4029 too fast, 4010 slow consumer… */
  wsCloses: Counter<'code'>;
  /** The Family A x402 fee payer's balance, set by `family-a.x402.resume` (alert when low). */
  feePayerLamports: Gauge;
  setWebSocketSource(source: WebSocketSource): void;
  setQueueDepthSource(source: QueueDepthSource): void;
  setMoneySource(source: MoneySource): void;
  setReadinessSource(source: ReadinessSource): void;
  /** The orderbook's metrics (src/infra/clob-metrics.ts). */
  clob: ClobMetrics;
}

/**
 * A scrape-time read that fails (Redis or the database away) leaves its gauges out of that scrape
 * instead of failing the scrape: `pmx_ready_check` then says which dependency is down.
 */
async function orNothing<T>(read: () => Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): DaemonMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  let source: QueueDepthSource | undefined;
  new Gauge({
    name: 'pmx_queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { queue, state, count } of (await orNothing(() => source?.())) ?? []) this.set({ queue, state }, count);
    },
  });
  // One database read per scrape feeds the three money gauges.
  let money: MoneySource | undefined;
  let snapshot: { at: number; value: Promise<Awaited<ReturnType<MoneySource>>> } | undefined;
  const readMoney = () => {
    if (!money) return undefined;
    if (!snapshot || Date.now() - snapshot.at > 500) snapshot = { at: Date.now(), value: money() };
    return snapshot.value;
  };
  /** A gauge rebuilt at each scrape from the money snapshot: one sample per row, rows of one label summed. */
  const moneyGauge = (
    name: string,
    help: string,
    label: string,
    rows: (value: Awaited<ReturnType<MoneySource>>) => Array<[string, number]>,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      async collect() {
        this.reset();
        const value = await orNothing(readMoney);
        if (!value) return;
        for (const [key, n] of rows(value)) this.inc({ [label]: key }, n);
      },
    });
  moneyGauge(
    'pmx_outbound_awaiting_funds',
    'Platform transactions (payouts, refunds) a platform wallet cannot cover yet, by purpose: fund the wallet (alert when > 0)',
    'purpose',
    (v) => v.awaitingFunds.map((r) => [r.purpose, r.count]),
  );
  moneyGauge(
    'pmx_outbound_awaiting_funds_oldest_seconds',
    'How long the oldest platform transaction of each purpose has waited for funds',
    'purpose',
    (v) => v.awaitingFunds.map((r) => [r.purpose, r.oldestSeconds]),
  );
  moneyGauge(
    'pmx_family_a_inbound_transfers',
    'Family A inbound transfers to platform wallets by state (held, honoured, credited, claimed, manual, refund_<status>)',
    'state',
    (v) => v.transfers.map((r) => [r.state, r.count]),
  );
  let readiness: ReadinessSource | undefined;
  let readinessSnapshot: { at: number; value: ReturnType<ReadinessSource> } | undefined;
  new Gauge({
    name: 'pmx_ready_check',
    help: 'The checks of GET /ready on this node (database, redis, workers, chain): 1 ok, 0 failing',
    labelNames: ['check'],
    registers: [registry],
    async collect() {
      if (!readiness) return;
      if (!readinessSnapshot || Date.now() - readinessSnapshot.at > 500) readinessSnapshot = { at: Date.now(), value: readiness() };
      this.reset();
      for (const [check, result] of Object.entries(await readinessSnapshot.value)) this.set({ check }, result.ok ? 1 : 0);
    },
  });
  let ws: WebSocketSource | undefined;
  new Gauge({
    name: 'pmx_ws_connections',
    help: 'Open WebSocket connections on this node, by channel',
    labelNames: ['channel'],
    registers: [registry],
    collect() {
      if (!ws) return;
      const stats = ws();
      this.set({ channel: 'market' }, stats.connections.market);
      this.set({ channel: 'user' }, stats.connections.user);
    },
  });
  new Gauge({
    name: 'pmx_ws_subscriptions',
    help: 'WebSocket subscriptions on this node: market subscriptions, and owners watched on the user channel',
    labelNames: ['channel'],
    registers: [registry],
    collect() {
      if (!ws) return;
      const stats = ws();
      this.set({ channel: 'market' }, stats.feeds.subscriptions);
      this.set({ channel: 'user' }, stats.owners);
    },
  });
  new Gauge({
    name: 'pmx_ws_unsent_frames',
    help: "Frames waiting in this node's WebSocket outbox (grows with slow consumers until they are dropped)",
    registers: [registry],
    collect() {
      if (ws) this.set(ws().unsent);
    },
  });
  return {
    registry,
    feePayerLamports: new Gauge({
      name: 'pmx_family_a_fee_payer_lamports',
      help: "Lamports of the Family A x402 fee payer (it pays every standard payment's fee): alert below FAMILY_A_X402_FEE_PAYER_MIN_SOL",
      registers: [registry],
    }),
    wsCloses: new Counter({
      name: 'pmx_ws_closes_total',
      help: 'WebSocket connections this node closed, by close code',
      labelNames: ['code'],
      registers: [registry],
    }),
    setWebSocketSource: (next) => (ws = next),
    httpDuration: new TalliedHistogram({
      name: 'pmx_http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobOutcomes: new Counter({
      name: 'pmx_jobs_total',
      help: 'Finished jobs by outcome',
      labelNames: ['queue', 'job', 'outcome'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'pmx_job_duration_seconds',
      help: 'Job processing time',
      labelNames: ['queue', 'job'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    }),
    processErrors: new Counter({
      name: 'pmx_process_errors_total',
      help: 'Stray errors caught by the process guard (unhandled rejections, uncaught exceptions)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    setQueueDepthSource(next) {
      source = next;
    },
    setMoneySource(next) {
      money = next;
    },
    setReadinessSource(next) {
      readiness = next;
    },
    clob: createClobMetrics(registry),
  };
}
