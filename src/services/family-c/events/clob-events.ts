/**
 * The events of the orderbook, as the WebSocket channels carry them (public facts, "WebSockets"):
 * market channel — `book` (snapshot), `price_change` (one level; size "0" removes it),
 * `best_bid_ask`, `trade` (matched, then settled; clients dedupe by id), `market_resolved`;
 * user channel — `order:placed|partially_filled|filled|cancelled|restored`, `fill:matched|settling|
 * settled|retrying|failed`, `balance:update`. Every market event carries the market's sequence
 * number `seq`: one more than the previous event of that market, so a gap means a lost event.
 */
import type { ClobMarketStatus, LevelDelta, Outcome } from '../../../domain/orderbook/index.js';
import type { BookTopView } from '../market.presenter.js';

export interface BookLevelView {
  price: number;
  size: string;
}

export interface BookSideView {
  bids: BookLevelView[];
  asks: BookLevelView[];
}

export type MarketEvent =
  | { event: 'price_change'; marketId: string; outcome: Outcome; side: 'buy' | 'sell'; price: number; size: string }
  | { event: 'best_bid_ask'; marketId: string; bestBid: BookTopView['bestBid']; bestAsk: BookTopView['bestAsk'] }
  | { event: 'trade'; marketId: string; trade: TradeView }
  | { event: 'market_resolved'; marketId: string; outcome: Outcome | null; status: ClobMarketStatus };

export type SequencedMarketEvent = MarketEvent & { seq: number; timestamp: number };

export interface TradeView {
  id: string;
  marketId: string;
  outcome: Outcome;
  priceBps: number;
  quantity: string;
  takerSide: 'buy' | 'sell';
  fillType: string;
  status: string;
  matchedAt: string;
  settleTx?: string | null;
}

export interface UserEvent {
  event: string;
  owner: string;
  marketId?: string;
  order?: Record<string, unknown>;
  fill?: Record<string, unknown>;
  balance?: Record<string, unknown>;
  timestamp: number;
}

/** What one committed operation tells the world, before sequence numbers are stamped. */
export interface EventBatch {
  market: MarketEvent[];
  user: UserEvent[];
}

export function levelEvent(marketId: string, l: LevelDelta): MarketEvent {
  return { event: 'price_change', marketId, outcome: l.outcome, side: l.side, price: l.priceBps, size: l.size.toString() };
}
