/**
 * The taking loop. An incoming order sees, in its own outcome's price terms, two queues of
 * opposite liquidity:
 *   buy  o at L: asks of o at a ≤ L (direct, price a) and bids of ō at b with L + b ≥ 10000
 *                (complementary, price 10000 − b);
 *   sell o at L: bids of o at b ≥ L (direct, price b) and asks of ō at a with L + a ≤ 10000
 *                (sell_complementary, price 10000 − a).
 * It always takes the better price for itself; at equal prices the earlier order (lower seq)
 * goes first, so price-time priority holds across the unified book. The maker's price sets
 * the fill price and the taker keeps any improvement.
 */
import { fillMoney } from './amounts.js';
import type { OrderBook } from './book.js';
import { WOULD_TAKE, invalidOrder } from './errors.js';
import { OrderNode, type Ladder } from './ladder.js';
import type { NormalisedOrder } from './validate.js';
import type { CancelledOrder, Fill, FillType, LevelDelta, OrderStatus, Outcome, PlaceResult, Side } from './types.js';

const OTHER: Record<Outcome, Outcome> = { yes: 'no', no: 'yes' };

interface Candidate {
  ladder: Ladder;
  type: FillType;
  /** Price in the taker's outcome. */
  price: number;
}

export class Matcher {
  constructor(private readonly book: OrderBook) {}

  /** The best crossing queue for a taker, or null when nothing crosses its limit. */
  private best(direct: Ladder, comp: Ladder, buy: boolean, limit: number, compType: FillType): Candidate | null {
    let d: Candidate | null = null;
    if (direct.best !== -1 && (buy ? direct.best <= limit : direct.best >= limit)) d = { ladder: direct, type: 'direct', price: direct.best };
    if (comp.best === -1) return d;
    const cp = 10_000 - comp.best;
    if (buy ? cp > limit : cp < limit) return d;
    if (d === null) return { ladder: comp, type: compType, price: cp };
    if (cp !== d.price) return (buy ? cp < d.price : cp > d.price) ? { ladder: comp, type: compType, price: cp } : d;
    const dHead = direct.levels[direct.best]!.head!;
    const cHead = comp.levels[comp.best]!.head!;
    return cHead.seq < dHead.seq ? { ladder: comp, type: compType, price: cp } : d;
  }

  /** Quantity a FOK order could fill, stopping once `enough` is reached; own orders do not count (they would be cancelled). */
  private fillable(direct: Ladder, comp: Ladder, order: NormalisedOrder, enough: bigint): bigint {
    const buy = order.side === 'buy';
    let total = 0n;
    const count = (ladder: Ladder, crosses: (price: number) => boolean) => {
      for (const level of ladder.walk(10_001)) {
        if (!crosses(level.priceBps)) return;
        for (let node = level.head; node !== null; node = node.next) {
          if (node.owner !== order.owner) total += node.remaining;
          if (total >= enough) return;
        }
      }
    };
    count(direct, (p) => (buy ? p <= order.priceBps : p >= order.priceBps));
    if (total < enough) count(comp, (p) => (buy ? 10_000 - p <= order.priceBps : 10_000 - p >= order.priceBps));
    return total;
  }

  place(order: NormalisedOrder): PlaceResult {
    const book = this.book;
    const buy = order.side === 'buy';
    const other = OTHER[order.outcome];
    const direct = book.ladders[order.outcome][buy ? 'sell' : 'buy'];
    const comp = book.ladders[other][buy ? 'buy' : 'sell'];
    const compType: FillType = buy ? 'complementary' : 'sell_complementary';
    const limit = order.priceBps;

    if (order.postOnly && this.best(direct, comp, buy, limit, compType) !== null) {
      throw invalidOrder(WOULD_TAKE, 'postOnly order would take liquidity on arrival');
    }
    const fills: Fill[] = [];
    const cancelled: CancelledOrder[] = [];
    const changed = new Map<string, OrderNode>();
    const touched = new Map<string, [Outcome, Side, number]>();
    const taker = new OrderNode(order.id, order.owner, order.side, order.outcome, limit, order.quantity, order.quantity,
      order.expiry, order.postOnly, book.nextSeq++, 0n, 0n);
    let takerFee = 0n;

    const fok = order.timeInForce === 'fok';
    if (!fok || this.fillable(direct, comp, order, order.quantity) >= order.quantity) {
      while (taker.remaining > 0n) {
        const candidate = this.best(direct, comp, buy, limit, compType);
        if (candidate === null) break;
        const ladder = candidate.ladder;
        const maker = ladder.levels[ladder.best]!.head!;
        touched.set(`${maker.outcome}:${maker.side}:${maker.priceBps}`, [maker.outcome, maker.side, maker.priceBps]);
        if (maker.owner === order.owner) {
          // Self-trade prevention: the resting order is cancelled, the taker carries on.
          cancelled.push({ order: maker.toResting(), reason: 'self_trade' });
          book.unrest(maker);
          changed.delete(maker.id);
          continue;
        }
        const quantity = taker.remaining < maker.remaining ? taker.remaining : maker.remaining;
        const feeBase = taker.usdc;
        const money = fillMoney(candidate.type, order.side, taker, maker, quantity, candidate.price, maker.priceBps, feeBase, book.fees);
        takerFee += money.takerFee;
        taker.remaining -= quantity;
        maker.remaining -= quantity;
        maker.level!.size -= quantity;
        if (maker.remaining === 0n) {
          book.unrest(maker);
        } else {
          book.setCommitment(maker);
        }
        changed.set(maker.id, maker);
        fills.push({
          seq: ++book.fillSeq,
          makerOrderId: maker.id,
          takerOrderId: order.id,
          makerOwner: maker.owner,
          takerOwner: order.owner,
          takerSide: order.side,
          outcome: order.outcome,
          priceBps: candidate.price,
          makerSide: maker.side,
          makerOutcome: maker.outcome,
          makerPriceBps: maker.priceBps,
          fillType: candidate.type,
          quantity,
          usdcAmount: money.takerUsdc,
          makerUsdc: money.makerUsdc,
          takerFee: money.takerFee,
          makerRebate: money.makerRebate,
          protocolFee: money.protocolFee,
          roundingDust: money.roundingDust,
        });
        book.lastPrice[order.outcome] = candidate.price;
        book.lastPrice[other] = 10_000 - candidate.price;
      }
    }

    const resting = taker.remaining > 0n && order.timeInForce === 'gtc';
    if (resting) {
      book.rest(taker);
      touched.set(`${taker.outcome}:${taker.side}:${taker.priceBps}`, [taker.outcome, taker.side, taker.priceBps]);
    }
    const filled = order.quantity - taker.remaining;
    const status: OrderStatus = taker.remaining === 0n ? 'filled' : resting ? (filled > 0n ? 'partially_filled' : 'open') : 'cancelled';
    const levels: LevelDelta[] = [...touched.values()].map(([o, s, p]) => book.levelOf(o, s, p));
    return {
      order: { id: order.id, status, remaining: taker.remaining, filled, resting, committedAmount: taker.committed, usdc: taker.usdc, takerFee },
      fills,
      makersChanged: [...changed.values()].map((node) => node.toResting()),
      cancelled,
      levels,
    };
  }
}
