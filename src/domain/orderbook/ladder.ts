/**
 * One side of one outcome: a price ladder indexed by tick (10,001 ticks, stored in pages of the
 * ticks in use: tick-pages.ts), each non-empty tick a FIFO level of orders held in an intrusive doubly linked list, plus a bitset
 * of non-empty ticks and the best tick. Append, remove and size changes are O(1); when the best
 * level empties the next best comes from the bitset (bounded, see tick-bitset.ts).
 */
import { TickBitset } from './tick-bitset.js';
import { PagedTotals, TickPages } from './tick-pages.js';
import type { Outcome, RestingOrder, Side } from './types.js';

export const TICKS = 10_001;

const SELL = 1;
const NO = 2;
const POST_ONLY = 4;

/**
 * A resting order. Kept small: every one survives the young generation, so the garbage
 * collector copies it twice before it settles (that copying was a third of place time). Side,
 * outcome and postOnly share one small-integer field; `committed` is a number (a small integer
 * for amounts below 2^30 raw units: no heap object; exact below 2^53, and the engine caps orders
 * at 10^14); a node finds its level through its ladder and price, not a field.
 */
export class OrderNode implements RestingOrder {
  prev: OrderNode | null = null;
  next: OrderNode | null = null;
  /** USDC (buy) or tokens (sell) this order currently commits; kept to update totals in O(1). */
  committed = 0;
  /** Epoch of the operation that last reported this order (dedupes reports without a Map). */
  stamp = 0;
  /** Its owner's total in the book's commitment ledger (buy: USDC, sell: its market and outcome), -1 until it commits. */
  ledgerSlot = -1;
  private readonly flags: number;

  constructor(
    readonly id: string,
    readonly owner: string,
    side: Side,
    outcome: Outcome,
    readonly priceBps: number,
    readonly quantity: bigint,
    /** Remaining quantity as a number (exact: quantities are capped at 10^14 raw units, below 2^53); `remaining` is its bigint. */
    public rem: number,
    readonly expiry: number,
    postOnly: boolean,
    readonly seq: number,
    public notional: bigint,
    public usdc: bigint,
  ) {
    this.flags = (side === 'sell' ? SELL : 0) | (outcome === 'no' ? NO : 0) | (postOnly ? POST_ONLY : 0);
  }

  get side(): Side {
    return (this.flags & SELL) !== 0 ? 'sell' : 'buy';
  }

  get outcome(): Outcome {
    return (this.flags & NO) !== 0 ? 'no' : 'yes';
  }

  get postOnly(): boolean {
    return (this.flags & POST_ONLY) !== 0;
  }

  get remaining(): bigint {
    return BigInt(this.rem);
  }

  toResting(): RestingOrder {
    const { id, owner, side, outcome, priceBps, quantity, remaining, expiry, postOnly, seq, notional, usdc } = this;
    return { id, owner, side, outcome, priceBps, quantity, remaining, expiry, postOnly, seq, notional, usdc };
  }
}

/**
 * V8 gives each field of a class one representation shared by all its objects. `rem` and
 * `committed` hold small integers for most orders, but an order of 2^31 raw units or more
 * (2,147 tokens at 6 decimals) stores a larger number, and from then on V8 would keep both fields
 * as boxed doubles in every node: one more heap object (16 bytes) per resting order, copied by the
 * garbage collector like the node itself (no measurable time in the bench, but memory and a
 * collector's object count for nothing). Storing a non-number once, here
 * at load, makes them tagged fields instead: a small integer stays unboxed, and only an order
 * whose amount needs a double gets one.
 */
function keepNumberFieldsTagged(): void {
  const probe = new OrderNode('', '', 'buy', 'yes', 1, 1n, 1, 0, false, 0, 0n, 0n) as unknown as { rem: unknown; committed: unknown };
  probe.rem = null;
  probe.committed = null;
}
keepNumberFieldsTagged();

export class Level {
  head: OrderNode | null = null;
  tail: OrderNode | null = null;
  count = 0;
  /** Epoch of the operation that last reported this level. */
  stamp = 0;
  constructor(
    readonly outcome: Outcome,
    readonly side: Side,
    readonly priceBps: number,
    /** The ladder's sizes by tick (see Ladder.sizes). */
    private readonly sizes: PagedTotals,
  ) {}

  /** Aggregate remaining quantity of the level's orders. */
  get size(): bigint {
    return this.sizes.get(this.priceBps);
  }
}

export class Ladder {
  /** Levels by tick; a level, once made, stays for the ladder's life (an empty one is reused). */
  private readonly levels = new TickPages<Level>(TICKS);
  readonly ticks = new TickBitset(TICKS);
  /** Best price (highest bid, lowest ask) or -1 when empty. */
  best = -1;
  /**
   * Each level's aggregate size, by tick, as exact double pairs (wide-totals.ts): a bigint field
   * of a long-lived Level object allocated a bigint and paid a write barrier on every change.
   */
  private readonly sizes = new PagedTotals(TICKS);

  constructor(
    readonly outcome: Outcome,
    readonly side: Side,
  ) {}

  /** The level at `price` (undefined when no order ever rested there; it may be empty). */
  levelAt(price: number): Level | undefined {
    return this.levels.get(price);
  }

  append(node: OrderNode): Level {
    const price = node.priceBps;
    let level = this.levels.get(price);
    if (level === undefined) {
      level = new Level(this.outcome, this.side, price, this.sizes);
      this.levels.set(price, level);
    }
    // After the last order that came before it: the tail on arrival; further in when an order
    // taken off by a refused replace goes back to its place in the queue (Book.reinstate).
    let after = level.tail;
    while (after !== null && after.seq > node.seq) after = after.prev;
    node.prev = after;
    node.next = after === null ? level.head : after.next;
    if (after === null) level.head = node;
    else after.next = node;
    if (node.next === null) level.tail = node;
    else node.next.prev = node;
    this.sizes.add(price, node.rem);
    if (level.count++ === 0) {
      this.ticks.set(price);
      if (this.best === -1 || (this.side === 'buy' ? price > this.best : price < this.best)) this.best = price;
    }
    return level;
  }

  remove(node: OrderNode): Level {
    const level = this.levels.get(node.priceBps)!;
    if (node.prev === null) level.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) level.tail = node.prev;
    else node.next.prev = node.prev;
    node.prev = node.next = null;
    this.sizes.add(level.priceBps, -node.rem);
    if (--level.count === 0) {
      this.ticks.clear(level.priceBps);
      if (level.priceBps === this.best) {
        this.best = this.side === 'buy' ? this.ticks.nextAtOrBelow(level.priceBps) : this.ticks.nextAtOrAbove(level.priceBps);
      }
    }
    return level;
  }

  /** Levels from the best outward, at most `depth` of them. */
  *walk(depth: number): Generator<Level> {
    let price = this.best;
    for (let n = 0; n < depth && price !== -1; n++) {
      yield this.levels.get(price)!;
      price = this.side === 'buy' ? this.ticks.nextAtOrBelow(price - 1) : this.ticks.nextAtOrAbove(price + 1);
    }
  }

  sizeAt(price: number): bigint {
    return price >= 0 && price < TICKS ? this.sizes.get(price) : 0n;
  }

  /** Changes the aggregate size of the level at `price` (a fill: negative; a give-back: positive). */
  addSize(price: number, delta: number): void {
    this.sizes.add(price, delta);
  }
}
