/**
 * The frames of the daemon's two WebSocket channels (docs/websockets.md), as this client reads
 * them. They are not in the OpenAPI document (only the 426 stubs of `/v2/ws/*` are), so they are
 * written here from the documented contract. Money is decimal strings of raw units, prices bps.
 */

export type Outcome = 'yes' | 'no';

/** One aggregated level, exactly as GET /v2/clob/markets/{id}/orderbook shows it. */
export interface Level {
  price: number;
  size: string;
}

/** One outcome's levels: bids high to low, asks low to high (the REST orderbook's `yes`/`no`). */
export interface BookSide {
  bids: Level[];
  asks: Level[];
}

export interface OutcomePrices {
  yes: number | null;
  no: number | null;
}

/** A market's whole book, in the REST orderbook's shape (without `hash` and `timestamp`). */
export interface BookView {
  marketId: string;
  seq: number;
  status: string | null;
  yes: BookSide;
  no: BookSide;
  bestBid: OutcomePrices;
  bestAsk: OutcomePrices;
  lastPrice: OutcomePrices;
}

// ---- market channel ----

export interface BookFrame {
  event: 'book';
  seq: number;
  status: string | null;
  marketId: string;
  /** Present when the book is split: k − 1 `book_levels` frames with the same seq follow at once. */
  parts?: number;
  yes: BookSide;
  no: BookSide;
  bestBid: OutcomePrices;
  bestAsk: OutcomePrices;
  lastPrice: OutcomePrices;
  timestamp: number;
}

export interface BookLevelsFrame {
  event: 'book_levels';
  seq: number;
  marketId: string;
  part: number;
  parts: number;
  yes: BookSide;
  no: BookSide;
}

export interface PriceChangeFrame {
  event: 'price_change';
  seq: number;
  marketId: string;
  outcome: Outcome;
  /** `buy` = bids, `sell` = asks. */
  side: 'buy' | 'sell';
  price: number;
  /** The level's new total; "0" removes it. */
  size: string;
  timestamp: number;
}

export interface BestBidAskFrame {
  event: 'best_bid_ask';
  seq: number;
  marketId: string;
  bestBid: OutcomePrices;
  bestAsk: OutcomePrices;
  timestamp: number;
}

export interface Trade {
  id: string;
  marketId: string;
  outcome: Outcome;
  priceBps: number;
  quantity: string;
  takerSide: 'buy' | 'sell';
  fillType: string;
  /** `matched` when the matcher commits it, `settled` when it lands on chain: dedupe by `id`. */
  status: string;
  matchedAt: string;
}

export interface TradeFrame {
  event: 'trade';
  seq: number;
  marketId: string;
  trade: Trade;
  timestamp: number;
}

export interface MarketResolvedFrame {
  event: 'market_resolved';
  seq: number;
  marketId: string;
  status: string;
  outcome: Outcome;
  timestamp: number;
}

/** The market events that carry the market's `seq` (every one moves it by one). */
export type MarketEventFrame = PriceChangeFrame | BestBidAskFrame | TradeFrame | MarketResolvedFrame;

// ---- both channels ----

export interface AckFrame {
  event: 'subscribed' | 'unsubscribed';
  markets: string[];
  pubkey?: string;
}

export type WsErrorCode =
  'INVALID_MESSAGE' | 'UNKNOWN_MARKET' | 'TOO_MANY_SUBSCRIPTIONS' | 'BOOK_UNAVAILABLE' | 'BINARY_NOT_SUPPORTED' | 'UNAVAILABLE';

export interface ErrorFrame {
  event: 'error';
  code: WsErrorCode | (string & {});
  message: string;
  /** UNKNOWN_MARKET: the references the daemon does not know. */
  markets?: string[];
  /** BOOK_UNAVAILABLE: the market whose subscription was dropped. */
  marketId?: string;
}

// ---- user channel (payloads are the REST `order`, `fill` and balances objects) ----

export interface UserOrderFrame {
  event: 'order:placed' | 'order:partially_filled' | 'order:filled' | 'order:cancelled' | 'order:restored';
  owner: string;
  marketId: string;
  /** Exactly the `order` of GET /v2/clob/orders/{id}. */
  order: Record<string, unknown> & { id: string; status: string };
  timestamp: number;
}

export interface UserFillFrame {
  event: 'fill:matched' | 'fill:settling' | 'fill:settled' | 'fill:retrying' | 'fill:failed' | 'fill:failed_insufficient_balance';
  owner: string;
  marketId: string;
  /** Exactly the `fill` of GET /v2/clob/fills/{id}: key fills by id and keep the latest. */
  fill: Record<string, unknown> & { id: string; status: string };
  timestamp: number;
}

export interface BalanceUpdateFrame {
  event: 'balance:update';
  owner: string;
  /** The body of GET /v2/clob/account/balances. */
  balance: Record<string, unknown>;
  timestamp: number;
}

export type UserEventFrame = UserOrderFrame | UserFillFrame | BalanceUpdateFrame;

export type ServerFrame = BookFrame | BookLevelsFrame | MarketEventFrame | AckFrame | ErrorFrame | UserEventFrame;

/** The daemon's close codes (docs/websockets.md, "Close codes"); every one is followed by a reconnect. */
export const WS_CLOSE_CODES = {
  goingAway: 1001,
  tooBig: 1009,
  serviceRestart: 1012,
  idle: 4008,
  slowConsumer: 4010,
  tooFast: 4029,
} as const;

/** The daemon's per-connection limits this client stays under (docs/websockets.md, "Limits"). */
export const WS_SERVER_LIMITS = {
  subscriptionsPerConnection: 50,
  framesPerSecond: 20,
  frameBytes: 4096,
  idleTimeoutMs: 30_000,
} as const;
