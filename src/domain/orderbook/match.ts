/**
 * The taking loop. An incoming order sees, in its own outcome's price terms, two queues of
 * opposite liquidity:
 *   buy  o at L: asks of o at a ≤ L (direct, price a) and bids of ō at b with L + b ≥ 10000
 *                (complementary, price 10000 − b);
 *   sell o at L: bids of o at b ≥ L (direct, price b) and asks of ō at a with L + a ≤ 10000
 *                (sell_complementary, price 10000 − a).
 * It always takes the better price for itself; at equal prices the earlier order (lower seq)
 * goes first, so price-time priority holds across the unified book. The maker's price sets
 * the fill price and the taker keeps any improvement. This is the hot path: it allocates only
 * what it returns.
 */
import { fillMoney } from '@pmx/programs';
import type { OrderBook } from './book.js';
import { WOULD_TAKE, invalidOrder } from './errors.js';
import { OrderNode, type Ladder, type Level } from './ladder.js';
import type { CancelledOrder, Fill, FillType, OrderRequest, OrderStatus, Outcome, PlaceResult, TimeInForce } from './types.js';

/** The shared empty list; replaced by a fresh array on first push. */
const EMPTY = Object.freeze([]) as unknown as never[];
const OTHER: Record<Outcome, Outcome> = { yes: 'no', no: 'yes' };
const NONE = 0;
const DIRECT = 1;
const COMP = 2;

/**
 * One book's taking loop (`OrderBook.place` delegates to it). Not the Family C `Matcher` service,
 * which batches operations over many books and owns their persistence.
 */
export class BookMatcher {
  /** Price (taker's outcome) of the queue `best` chose last. */
  private price = 0;

  constructor(private readonly book: OrderBook) {}

  /** Which crossing queue is best for the taker (NONE, DIRECT or COMP); sets `this.price`. */
  private best(direct: Ladder, comp: Ladder, buy: boolean, limit: number): number {
    const d = direct.best;
    const dOk = d !== -1 && (buy ? d <= limit : d >= limit);
    const c = comp.best;
    const cp = 10_000 - c;
    const cOk = c !== -1 && (buy ? cp <= limit : cp >= limit);
    if (!cOk) {
      this.price = d;
      return dOk ? DIRECT : NONE;
    }
    if (!dOk || (buy ? cp < d : cp > d) || (cp === d && comp.levelAt(c)!.head!.seq < direct.levelAt(d)!.head!.seq)) {
      this.price = cp;
      return COMP;
    }
    this.price = d;
    return DIRECT;
  }

  /** Quantity a FOK order could fill, stopping once `enough` is reached; own orders do not count (they would be cancelled). */
  private fillable(direct: Ladder, comp: Ladder, order: OrderRequest, enough: number): number {
    const buy = order.side === 'buy';
    let total = 0;
    const count = (ladder: Ladder, crosses: (price: number) => boolean) => {
      for (const level of ladder.walk(10_001)) {
        if (!crosses(level.priceBps)) return;
        for (let node = level.head; node !== null; node = node.next) {
          if (node.owner !== order.owner) total += node.rem;
          if (total >= enough) return;
        }
      }
    };
    count(direct, (p) => (buy ? p <= order.priceBps : p >= order.priceBps));
    if (total < enough) count(comp, (p) => (buy ? 10_000 - p <= order.priceBps : 10_000 - p >= order.priceBps));
    return total;
  }

  place(order: OrderRequest, timeInForce: TimeInForce, postOnly: boolean): PlaceResult {
    const book = this.book;
    const buy = order.side === 'buy';
    const other = OTHER[order.outcome];
    const direct = book.ladders[order.outcome][buy ? 'sell' : 'buy'];
    const comp = book.ladders[other][buy ? 'buy' : 'sell'];
    const compType: FillType = buy ? 'complementary' : 'sell_complementary';
    const limit = order.priceBps;

    if (postOnly && this.best(direct, comp, buy, limit) !== NONE) {
      throw invalidOrder(WOULD_TAKE, 'postOnly order would take liquidity on arrival');
    }
    const stamp = book.nextStamp();
    let fills: Fill[] = EMPTY;
    let cancelled: CancelledOrder[] = EMPTY;
    let changed: OrderNode[] = EMPTY;
    const touched: Level[] = [];
    const size = Number(order.quantity); // exact: validateOrder capped it below 2^53
    const taker = new OrderNode(
      order.id,
      order.owner,
      order.side,
      order.outcome,
      limit,
      order.quantity,
      size,
      order.expiry,
      postOnly,
      book.nextSeq++,
      0n,
      0n,
    );
    let takerFee = 0n;

    if (timeInForce !== 'fok' || this.fillable(direct, comp, order, size) >= size) {
      while (taker.rem > 0) {
        const which = this.best(direct, comp, buy, limit);
        if (which === NONE) break;
        const ladder = which === DIRECT ? direct : comp;
        const level = ladder.levelAt(ladder.best)!;
        const maker = level.head!;
        if (level.stamp !== stamp) {
          level.stamp = stamp;
          touched.push(level);
        }
        if (maker.owner === order.owner) {
          // Self-trade prevention: the resting order is cancelled, the taker carries on.
          if (cancelled === EMPTY) cancelled = [];
          cancelled.push({ order: maker.toResting(), reason: 'self_trade' });
          book.unrest(maker);
          continue;
        }
        const q = taker.rem < maker.rem ? taker.rem : maker.rem;
        const quantity = BigInt(q);
        const type = which === DIRECT ? 'direct' : compType;
        const money = fillMoney(type, order.side, taker, maker, quantity, this.price, maker.priceBps, taker.usdc, book.fees);
        takerFee += money.takerFee;
        taker.rem -= q;
        maker.rem -= q;
        ladder.addSize(level.priceBps, -q);
        if (maker.rem === 0) book.unrest(maker);
        else book.setCommitment(maker);
        if (maker.stamp !== stamp) {
          maker.stamp = stamp;
          if (changed === EMPTY) changed = [];
          changed.push(maker);
        }
        if (fills === EMPTY) fills = [];
        fills.push({
          seq: ++book.fillSeq,
          makerOrderId: maker.id,
          takerOrderId: order.id,
          makerOwner: maker.owner,
          takerOwner: order.owner,
          takerSide: order.side,
          outcome: order.outcome,
          priceBps: this.price,
          makerSide: maker.side,
          makerOutcome: maker.outcome,
          makerPriceBps: maker.priceBps,
          fillType: type,
          quantity,
          usdcAmount: money.takerUsdc,
          makerUsdc: money.makerUsdc,
          takerFee: money.takerFee,
          makerRebate: money.makerRebate,
          protocolFee: money.protocolFee,
          roundingDust: money.roundingDust,
        });
        book.lastPrice[order.outcome] = this.price;
        book.lastPrice[other] = 10_000 - this.price;
      }
    }

    const resting = taker.rem > 0 && timeInForce === 'gtc';
    if (resting) {
      const level = book.rest(taker);
      if (level.stamp !== stamp) touched.push(level);
    }
    const untouched = taker.rem === size; // most orders: no bigint to make
    const remaining = untouched ? order.quantity : BigInt(taker.rem);
    const filled = untouched ? 0n : order.quantity - remaining;
    const status: OrderStatus = taker.rem === 0 ? 'filled' : resting ? (untouched ? 'open' : 'partially_filled') : 'cancelled';
    const makersChanged = changed === EMPTY ? EMPTY : changed.map((node) => node.toResting());
    return {
      order: {
        id: order.id,
        status,
        remaining,
        filled,
        resting,
        committedAmount: resting ? BigInt(taker.committed) : 0n,
        usdc: taker.usdc,
        takerFee,
      },
      fills,
      makersChanged,
      cancelled,
      levels: touched.map((level) => ({ outcome: level.outcome, side: level.side, priceBps: level.priceBps, size: level.size })),
    };
  }
}
