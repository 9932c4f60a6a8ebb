/**
 * The matcher: the one writer of the books it owns. Operations queue up and run in batches, each
 * batch in ONE database transaction (group commit: one fsync for many orders), fenced by the
 * market's matcher epoch, so a matcher that lost a market can never write to it again. A caller
 * is answered only after its batch committed: an acknowledged order and its fills are durable.
 * If a batch fails to commit, the books it touched are rebuilt from the database and every
 * caller of the batch gets 503 (nothing of it was acknowledged, nothing of it is kept).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { PublicKey } from '@solana/web3.js';
import { stillPendingGiveBacks } from '../../../../db/repositories/clob-fills.repository.js';
import { fenceBatch } from '../../../../db/repositories/clob-batch.repository.js';
import { clobMarketStatuses } from '../../../../db/repositories/clob-markets.repository.js';
import type { Database } from '../../../../db/schema.js';
import { DomainError, isDomainError } from '../../../domain/errors.js';
import type { ClobMetrics } from '../../../infra/clob-metrics.js';
import { BatchLedger, EXPIRY_MARGIN_SEC, parseBookMarketStatus, type FeeConfig } from '../../../domain/orderbook/index.js';
import { presentBatch, type BatchViews } from '../orders/batch-views.js';
import { batchOwners, giveBackHolders, readBatchStart } from './batch-reads.js';
import { reloadMarket, takeOverMarkets } from './market-takeover.js';
import * as ops from './matcher-ops.js';
import { BatchWrites } from './placement-writer.js';
import type { MatcherEventSink, MatcherOp, OpOutcome, OpResult, OwnedMarket } from './matcher-types.js';
import { observeBatch } from './matcher-metrics.js';

export interface MatcherDeps {
  db: Kysely<Database>;
  log: Logger;
  programId: PublicKey;
  usdcMint: string;
  fees: FeeConfig;
  nodeId: string;
  /** PostgreSQL: owners' rows are locked per batch (several matchers write one database). */
  lockOwners?: boolean;
  events?: MatcherEventSink;
  /** Batch size, duration and new fills (matcher-metrics.ts). */
  metrics?: ClobMetrics;
  /** Largest number of operations committed together (default 256). */
  maxBatch?: number;
  now?: () => number;
}

interface Pending {
  op: MatcherOp;
  resolve(value: OpResult): void;
  reject(error: unknown): void;
}

class FencedOut extends Error {
  constructor(readonly marketId: string) {
    super(`market ${marketId} was taken over by another matcher`);
  }
}

/** How often the matcher role calls `sweepExpired`: an expired order leaves the book within about a second. */
export const EXPIRY_SWEEP_MS = 1_000;

const marketOf = (op: MatcherOp) => ('order' in op ? op.order.marketId : op.marketId);
const ordersOf = (op: MatcherOp) => (op.kind === 'placeMany' ? op.orders : 'order' in op ? [op.order] : []);
/** What the event sink and the metrics see: a `placeMany` as its placements. */
const outcomesOf = (r: OpResult): OpOutcome[] =>
  r.kind === 'placeMany' ? r.results.filter((x): x is Exclude<typeof x, DomainError> => !(x instanceof DomainError)) : [r];

export class Matcher {
  readonly markets = new Map<string, OwnedMarket>();
  private pending: Pending[] = [];
  private running: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: MatcherDeps) {
    this.now = deps.now ?? Date.now;
  }

  owns(marketId: string): boolean {
    return this.markets.has(marketId);
  }

  /** Takes a market over: a new fencing epoch first, then the book as the database holds it. */
  async own(marketId: string): Promise<void> {
    const failed = await this.ownMany([marketId]);
    const error = failed.get(marketId);
    if (error) throw error;
  }

  /** Takes markets over (market-takeover.ts); returns those that could not be taken, with why. */
  async ownMany(marketIds: readonly string[]): Promise<Map<string, Error>> {
    const { owned, failed } = await takeOverMarkets(
      this.deps,
      marketIds.filter((marketId) => !this.markets.has(marketId)),
    );
    for (const market of owned) {
      this.markets.set(market.marketId, market);
      this.deps.log.info(
        { market: market.marketId, epoch: market.epoch.toString(), resting: market.book.index.size },
        'matcher owns market',
      );
    }
    return failed;
  }

  /** Stops writing a market (lease lost or handed over); its queued operations are refused as unavailable. */
  disown(marketId: string): void {
    if (this.markets.delete(marketId)) this.deps.log.info({ market: marketId }, 'matcher released market');
  }

  submit(op: MatcherOp): Promise<OpResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ op, resolve, reject });
      this.running ??= this.drainSoon();
    });
  }

  /**
   * Starts the drain after this turn's I/O (setImmediate), so every request read in the turn joins
   * one batch and one commit. Started at once, each request's batch committed (SQLite: an fsync)
   * before the next was parsed: 933 commits for 948 orders in the placement bench.
   */
  private async drainSoon(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      await this.drain();
    } finally {
      this.running = null;
      // An op submitted after the drain's last look at the queue (a microtask between) starts the next one.
      if (this.pending.length > 0) this.running = this.drainSoon();
    }
  }

  /** Queues an expiry sweep for every owned market with an order due (every EXPIRY_SWEEP_MS). */
  sweepExpired(): void {
    const due = Math.floor(this.now() / 1000) + EXPIRY_MARGIN_SEC;
    for (const m of this.markets.values()) {
      if (m.nextExpiry <= due)
        void this.submit({ kind: 'expire', marketId: m.marketId }).catch((err) =>
          this.deps.log.warn({ err, market: m.marketId }, 'expiry sweep failed'),
        );
    }
  }

  /** Resolves when everything queued so far is committed (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let first = true; this.pending.length > 0; first = false) {
      // After a batch, a turn's I/O first: requests read while it committed join the next one.
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      const batch = this.pending.splice(0, this.deps.maxBatch ?? 256);
      const started = performance.now();
      const outcomes = await this.runBatch(batch);
      if (this.deps.metrics) observeBatch(this.deps.metrics, batch.length, (performance.now() - started) / 1000, outcomes);
    }
  }

  /** Runs one batch; what it committed (none when it failed). */
  private async runBatch(batch: Pending[]): Promise<OpOutcome[]> {
    const results: Array<{ ok: OpResult } | { err: unknown }> = [];
    const touched = new Set<string>();
    const nowMs = this.now();
    let views: BatchViews = { orders: new Map(), fills: new Map() };
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const markets = [...new Set(batch.map(({ op }) => marketOf(op)))].filter((id) => this.markets.has(id));
        const orders = batch.flatMap(({ op }) => (this.markets.has(marketOf(op)) ? ordersOf(op) : []));
        const giveBacks = batch.flatMap(({ op }) => (op.kind === 'giveBack' ? op.fills.map((f) => ({ marketId: op.marketId, ...f })) : []));
        const holders = giveBackHolders(giveBacks, this.markets);
        const syncing = batch.flatMap(({ op }) => (op.kind === 'syncStatus' ? [op.marketId] : []));
        // The fence first: on SQLite also the database's write lock, on PostgreSQL also the owners' rows.
        const lost = await fenceBatch(
          trx,
          markets.map((marketId) => ({ marketId, epoch: this.markets.get(marketId)!.epoch })),
          this.deps.lockOwners === true ? batchOwners(orders, holders) : undefined,
        );
        if (lost !== undefined) throw new FencedOut(lost);
        const start = await readBatchStart(trx, orders, {
          programId: this.deps.programId,
          usdcMint: this.deps.usdcMint,
          markets: this.markets,
          holders,
        });
        const now = new Date(nowMs).toISOString();
        const c: ops.OpContext = {
          ledger: new BatchLedger(this.deps.fees, start.starts, start.nonces),
          writes: new BatchWrites(now),
          now,
          nowSec: Math.floor(nowMs / 1000),
          pendingGiveBacks: await stillPendingGiveBacks(
            trx,
            giveBacks.map((f) => f.fillId),
          ),
          statuses: new Map((await clobMarketStatuses(trx, syncing)).map((r) => [r.id, parseBookMarketStatus(r.status)])),
        };
        for (const { op } of batch) {
          const marketId = marketOf(op);
          const m = this.markets.get(marketId);
          if (!m) {
            results.push({
              err: new DomainError(
                'unavailable',
                'MARKET_NOT_OWNED',
                `This matcher does not own market ${marketId} (being handed over); try again`,
              ),
            });
            continue;
          }
          touched.add(marketId);
          try {
            results.push({ ok: this.apply(c, m, op) });
          } catch (error) {
            if (!isDomainError(error)) throw error;
            results.push({ err: error }); // refused before anything changed
          }
        }
        await c.writes.flush(trx);
        // Read in the transaction: the events then carry exactly what REST shows once it commits.
        if (this.deps.events) views = await presentBatch(trx, c.writes.written());
      });
    } catch (error) {
      await this.recover(error, touched);
      const unavailable =
        error instanceof FencedOut
          ? new DomainError('unavailable', 'MARKET_NOT_OWNED', `${error.message}; try again`)
          : new DomainError('unavailable', 'MATCHER_UNAVAILABLE', 'The order could not be recorded; nothing was placed. Try again.');
      for (const p of batch) p.reject(unavailable);
      return [];
    }
    const outcomes: OpOutcome[] = [];
    for (const [i, p] of batch.entries()) {
      const r = results[i]!;
      if ('ok' in r) {
        outcomes.push(...outcomesOf(r.ok));
        p.resolve(r.ok);
      } else p.reject(r.err);
    }
    if (outcomes.length > 0) {
      try {
        this.deps.events?.committed(outcomes, this.markets, views);
      } catch (err) {
        this.deps.log.error({ err }, 'matcher event sink failed');
      }
    }
    return outcomes;
  }

  private apply(c: ops.OpContext, m: OwnedMarket, op: MatcherOp): OpResult {
    switch (op.kind) {
      case 'place':
        return ops.placeOrder(c, m, op.order);
      case 'placeMany':
        return ops.placeOrders(c, m, op.orders);
      case 'replace':
        return ops.replaceOrder(c, m, op.oldOrderId, op.order);
      case 'cancel':
        return ops.cancelOrder(c, m, op.orderId);
      case 'cancelOwner':
        return ops.cancelOwner(c, m, op.owner, op.reason);
      case 'cancelOrders':
        return ops.cancelOrders(c, m, op.orderIds, op.reason);
      case 'expire':
        return ops.expireOrders(c, m);
      case 'status':
        return ops.applyStatus(c, m, op.status);
      case 'giveBack':
        return ops.giveBack(c, m, op.fills);
      case 'syncStatus':
        return ops.applyStatus(c, m, c.statuses.get(m.marketId) ?? m.status); // the same status again changes nothing
    }
  }

  /**
   * The batch did not commit: rebuild the books it touched from what the database kept, with their
   * status (a status operation changes it in memory before the commit; left as it was, a failed
   * pause would keep refusing orders, a failed resume would keep taking them) and next expiry.
   */
  private async recover(error: unknown, touched: Set<string>): Promise<void> {
    if (error instanceof FencedOut) {
      this.deps.log.warn({ market: error.marketId }, 'fenced out: another matcher owns this market now');
      this.markets.delete(error.marketId);
      touched.delete(error.marketId);
    } else {
      this.deps.log.error({ err: error, markets: [...touched] }, 'matcher batch failed; rebuilding its books');
    }
    for (const marketId of touched) {
      const m = this.markets.get(marketId);
      if (!m) continue;
      try {
        await reloadMarket(this.deps, m);
      } catch (err) {
        this.deps.log.error({ err, market: marketId }, 'could not rebuild a book; releasing the market');
        this.markets.delete(marketId);
      }
    }
  }
}
