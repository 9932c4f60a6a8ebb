/**
 * One market's book with both outcomes: four ladders (yes/no × buy/sell), an order index
 * (id → node) and the per-owner commitment ledger. Pure and synchronous: the matcher role owns
 * one instance per market, persists each PlaceResult before acknowledging, and rebuilds the
 * book with `OrderBook.restore(snapshot)` (or from its resting orders) after a crash.
 */
import { buyCommitmentOf } from '@pmx/programs';
import { CommitmentLedger } from './commitments.js';
import { Ladder, OrderNode, type Level } from './ladder.js';
import { BookMatcher } from './match.js';
import { OrderIndex } from './order-index.js';
import { MAX_ORDER_QUANTITY } from './order-rules.js';
import { validateOrder } from './validate.js';
import {
  DEFAULT_FEES,
  type BookTop,
  type CancelReason,
  type CancelledOrder,
  type FeeConfig,
  type LevelDelta,
  type Outcome,
  type OutcomeDepth,
  type OrderRequest,
  type PlaceResult,
  type RestingOrder,
  type Side,
} from './types.js';

export interface BookOptions {
  marketId: string;
  fees?: FeeConfig;
  /** Shared across the books of one matcher so owners' totals span markets. */
  commitments?: CommitmentLedger;
}

export interface BookSnapshot {
  marketId: string;
  /** Resting orders in time priority. */
  orders: RestingOrder[];
  nextSeq: number;
  fillSeq: number;
  lastPrice: Record<Outcome, number | null>;
}

export interface SingleCancel extends CancelledOrder {
  /** The order's level after the cancel (size 0n: the level is gone). */
  level: LevelDelta;
}

export interface GiveBack {
  /** The order after the give-back. */
  order: RestingOrder;
  level: LevelDelta;
  /** How much more it commits (USDC for a buy, tokens for a sell). */
  commitment: bigint;
}

export interface CancelResult {
  cancelled: CancelledOrder[];
  levels: LevelDelta[];
}

export class OrderBook {
  readonly marketId: string;
  readonly fees: FeeConfig;
  readonly commitments: CommitmentLedger;
  readonly ladders: Record<Outcome, Record<Side, Ladder>> = {
    yes: { buy: new Ladder('yes', 'buy'), sell: new Ladder('yes', 'sell') },
    no: { buy: new Ladder('no', 'buy'), sell: new Ladder('no', 'sell') },
  };
  readonly index = new OrderIndex<OrderNode>();
  lastPrice: Record<Outcome, number | null> = { yes: null, no: null };
  nextSeq = 1;
  fillSeq = 0;
  private readonly matcher: BookMatcher;
  private stamp = 0;
  /** owner → the ledger slot of its committed YES tokens of this market (NO is the next slot): one lookup per resting sell. */
  private readonly tokenSlots = new Map<string, number>();

  constructor(options: BookOptions) {
    this.marketId = options.marketId;
    this.fees = options.fees ?? DEFAULT_FEES;
    this.commitments = options.commitments ?? new CommitmentLedger();
    this.matcher = new BookMatcher(this);
  }

  /** Matches an order and rests its remainder per its time in force. Throws DomainError on refusal (nothing changes). */
  place(request: OrderRequest): PlaceResult {
    const timeInForce = validateOrder(request, this.index);
    return this.matcher.place(request, timeInForce, request.postOnly === true);
  }

  /** Cancels one resting order; null when it is not on the book (filled, cancelled, unknown). */
  cancel(id: string, reason: CancelReason = 'user'): SingleCancel | null {
    const node = this.index.get(id);
    if (node === undefined) return null;
    this.unrest(node);
    return { order: node.toResting(), reason, level: this.levelOf(node.outcome, node.side, node.priceBps) };
  }

  /**
   * Puts back an order `cancel` took off, at its place in its level's queue (by `seq`), as if it
   * had never left: the undo of a replace whose new order was refused (matcher-ops.ts).
   */
  reinstate(node: OrderNode): void {
    if (this.index.has(node.id)) throw new Error(`reinstate: order ${node.id} is on the book`);
    this.rest(node);
  }

  /**
   * Gives a failed fill's quantity back to a resting order: `remaining` grows by `quantity` (never
   * past the signed quantity), the fill leaves the order's cumulative rounding state (its
   * `notional` and `usdc` share), and the order keeps its place in its level's queue, as if the
   * fill had not happened. Null when the order does not rest on this book.
   */
  giveBack(id: string, quantity: bigint, notional: bigint, usdc: bigint): GiveBack | null {
    const node = this.index.get(id);
    if (node === undefined) return null;
    if (quantity <= 0n || node.remaining + quantity > node.quantity)
      throw new RangeError(`give-back of ${quantity} to order ${id} exceeds its signed quantity`);
    const before = node.committed;
    node.rem += Number(quantity);
    this.ladders[node.outcome][node.side].addSize(node.priceBps, Number(quantity));
    node.notional = node.notional > notional ? node.notional - notional : 0n;
    node.usdc = node.usdc > usdc ? node.usdc - usdc : 0n;
    this.setCommitment(node);
    return {
      order: node.toResting(),
      level: this.levelOf(node.outcome, node.side, node.priceBps),
      commitment: BigInt(node.committed - before),
    };
  }

  /** Cancels every resting order whose expiry (unix seconds) is at or before `now`. O(resting orders). */
  expire(now: number): CancelResult {
    const due: OrderNode[] = [];
    for (const node of this.index.values()) if (node.expiry <= now) due.push(node);
    return this.cancelNodes(due, 'expired');
  }

  /** Cancels all of an owner's resting orders (cancel-all). */
  cancelOwner(owner: string): CancelResult {
    const mine: OrderNode[] = [];
    for (const node of this.index.values()) if (node.owner === owner) mine.push(node);
    return this.cancelNodes(mine, 'user');
  }

  /** The earliest expiry among resting orders (unix seconds), Infinity when none. O(n), no copy. */
  earliestExpiry(): number {
    let next = Infinity;
    for (const node of this.index.values()) if (node.expiry < next) next = node.expiry;
    return next;
  }

  get(id: string): RestingOrder | undefined {
    return this.index.get(id)?.toResting();
  }

  /** Resting orders in time priority. O(n log n): the index does not keep insertion order. */
  restingOrders(): RestingOrder[] {
    return [...this.index.values()].sort((a, b) => a.seq - b.seq).map((node) => node.toResting());
  }

  top(): BookTop {
    const best = (ladder: Ladder) => (ladder.best === -1 ? null : ladder.best);
    return {
      bestBid: { yes: best(this.ladders.yes.buy), no: best(this.ladders.no.buy) },
      bestAsk: { yes: best(this.ladders.yes.sell), no: best(this.ladders.no.sell) },
      lastPrice: { ...this.lastPrice },
    };
  }

  /** Aggregated levels per outcome, best first, at most `depth` per side. */
  depth(depth: number): Record<Outcome, OutcomeDepth> {
    const side = (ladder: Ladder) =>
      [...ladder.walk(depth)].map((level) => ({ priceBps: level.priceBps, size: level.size, orders: level.count }));
    return {
      yes: { bids: side(this.ladders.yes.buy), asks: side(this.ladders.yes.sell) },
      no: { bids: side(this.ladders.no.buy), asks: side(this.ladders.no.sell) },
    };
  }

  snapshot(): BookSnapshot {
    return {
      marketId: this.marketId,
      orders: this.restingOrders(),
      nextSeq: this.nextSeq,
      fillSeq: this.fillSeq,
      lastPrice: { ...this.lastPrice },
    };
  }

  /** Rebuilds a book from resting orders (any order; time priority comes from `seq`). */
  static restore(options: BookOptions, snapshot: Pick<BookSnapshot, 'orders'> & Partial<BookSnapshot>): OrderBook {
    const book = new OrderBook(options);
    const orders = [...snapshot.orders].sort((a, b) => a.seq - b.seq);
    let maxSeq = 0;
    for (const order of orders) {
      if (book.index.has(order.id)) throw new Error(`restore: duplicate order ${order.id}`);
      if (order.remaining <= 0n || order.remaining > order.quantity)
        throw new Error(`restore: order ${order.id} has remaining ${order.remaining}`);
      if (order.quantity > MAX_ORDER_QUANTITY) throw new Error(`restore: order ${order.id} has quantity ${order.quantity} above the cap`);
      if (!Number.isInteger(order.priceBps) || order.priceBps < 1 || order.priceBps > 9999)
        throw new Error(`restore: order ${order.id} has price ${order.priceBps}`);
      const node = new OrderNode(
        order.id,
        order.owner,
        order.side,
        order.outcome,
        order.priceBps,
        order.quantity,
        Number(order.remaining),
        order.expiry,
        order.postOnly,
        order.seq,
        order.notional,
        order.usdc,
      );
      book.rest(node);
      maxSeq = Math.max(maxSeq, order.seq);
    }
    book.nextSeq = Math.max(snapshot.nextSeq ?? 1, maxSeq + 1);
    book.fillSeq = snapshot.fillSeq ?? 0;
    book.lastPrice = { yes: null, no: null, ...snapshot.lastPrice };
    return book;
  }

  // ---- internals shared with the BookMatcher ----

  /** Puts an order on its level (returned), the index and the ledger. */
  rest(node: OrderNode): Level {
    const level = this.ladders[node.outcome][node.side].append(node);
    this.index.set(node);
    this.setCommitment(node);
    return level;
  }

  unrest(node: OrderNode): void {
    this.ladders[node.outcome][node.side].remove(node);
    this.index.delete(node.id);
    this.releaseCommitment(node);
  }

  setCommitment(node: OrderNode): void {
    const next = node.side === 'buy' ? buyCommitmentOf(node.rem, node.priceBps) : node.rem;
    const prev = node.committed;
    if (next === prev) return;
    node.committed = next;
    this.addToLedger(node, next - prev); // exact: both below 2^53
  }

  private releaseCommitment(node: OrderNode): void {
    if (node.committed === 0) return;
    this.addToLedger(node, -node.committed);
    node.committed = 0;
  }

  /** Adds to the owner's committed total through the ledger slot the order keeps (one lookup per order, not per change). */
  private addToLedger(node: OrderNode, delta: number): void {
    if (node.ledgerSlot === -1) node.ledgerSlot = node.side === 'buy' ? this.commitments.usdcSlot(node.owner) : this.tokenSlotOf(node);
    this.commitments.addAt(node.ledgerSlot, delta);
  }

  private tokenSlotOf(node: OrderNode): number {
    let yes = this.tokenSlots.get(node.owner);
    if (yes === undefined) {
      yes = this.commitments.tokenSlot(node.owner, this.marketId, 'yes');
      this.tokenSlots.set(node.owner, yes);
    }
    return node.outcome === 'yes' ? yes : yes + 1;
  }

  levelOf(outcome: Outcome, side: Side, priceBps: number): LevelDelta {
    return { outcome, side, priceBps, size: this.ladders[outcome][side].sizeAt(priceBps) };
  }

  /** Hands out epochs that mark levels and orders as already reported within one operation. */
  nextStamp(): number {
    return ++this.stamp;
  }

  private cancelNodes(nodes: OrderNode[], reason: CancelReason): CancelResult {
    const cancelled: CancelledOrder[] = [];
    const touched = new Map<string, [Outcome, Side, number]>();
    for (const node of nodes) {
      this.unrest(node);
      cancelled.push({ order: node.toResting(), reason });
      touched.set(`${node.outcome}:${node.side}:${node.priceBps}`, [node.outcome, node.side, node.priceBps]);
    }
    return { cancelled, levels: [...touched.values()].map(([o, s, p]) => this.levelOf(o, s, p)) };
  }
}
