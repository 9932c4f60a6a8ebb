/** The operations the matcher runs on the books it owns, and what each answers. */
import type {
  BookMarketStatus,
  ClobMarketStatus,
  OrderBook,
  RestingOrder,
  LevelDelta,
  CancelledOrder,
  OrderOutcome,
  ListCancelReason,
} from '../../../domain/orderbook/index.js';
import type { DomainError } from '../../../domain/errors.js';
import type { BatchViews } from '../orders/batch-views.js';
import type { AcceptedOrder } from '../orders/order-intake.js';
import type { StoredFill } from './placement-writer.js';

export type MatcherOp =
  | { kind: 'place'; order: AcceptedOrder }
  /** Several orders of one market in one operation, each placed or refused on its own (a batch request). */
  | { kind: 'placeMany'; marketId: string; orders: AcceptedOrder[] }
  /** Cancels `oldOrderId` and places `order` in one operation (matcher-ops.ts `replaceOrder`). */
  | { kind: 'replace'; oldOrderId: string; order: AcceptedOrder }
  | { kind: 'cancel'; marketId: string; orderId: string }
  /** All of an owner's resting orders; `reason` when the service cancels them (a fired heartbeat deadline). */
  | { kind: 'cancelOwner'; marketId: string; owner: string; reason?: ListCancelReason }
  /** Orders their wallet no longer covers (wallet-coverage.service.ts): cancelled if still resting. */
  | { kind: 'cancelOrders'; marketId: string; orderIds: string[]; reason: ListCancelReason }
  | { kind: 'expire'; marketId: string }
  | { kind: 'status'; marketId: string; status: ClobMarketStatus }
  /** Apply the status the database holds when the operation runs (catch-up.ts). */
  | { kind: 'syncStatus'; marketId: string }
  | { kind: 'giveBack'; marketId: string; fills: GiveBackFill[] };

/** A failed fill's share of one resting order, to give back (see `giveBack` in matcher-ops.ts). */
export interface GiveBackFill {
  fillId: string;
  orderId: string;
  quantity: bigint;
  /** The fill's part of the order's cumulative rounding state: quantity × the order's own price, and its USDC leg. */
  notional: bigint;
  usdc: bigint;
}

export interface PlaceOutcome {
  kind: 'place';
  order: AcceptedOrder;
  outcome: OrderOutcome;
  fills: StoredFill[];
  makersChanged: readonly RestingOrder[];
  cancelled: readonly CancelledOrder[];
  levels: readonly LevelDelta[];
  matchedAt: string;
}

export interface CancelOutcome {
  kind: 'cancel';
  marketId: string;
  cancelled: CancelledOrder[];
  levels: LevelDelta[];
  /** Resting orders that got a failed fill's quantity back (give-backs). */
  restored?: RestingOrder[];
}

export type OpOutcome = PlaceOutcome | CancelOutcome;

/** What `placeMany` answers: each order's outcome or refusal, in the order given. */
export interface PlaceManyOutcome {
  kind: 'placeMany';
  marketId: string;
  results: Array<PlaceOutcome | DomainError>;
}

/** What an operation answers its caller; the event sink sees `placeMany` as its placements. */
export type OpResult = OpOutcome | PlaceManyOutcome;

/** One owned market: its book, the fencing epoch of our ownership and what the matcher needs to know. */
export interface OwnedMarket {
  marketId: string;
  book: OrderBook;
  epoch: bigint;
  status: BookMarketStatus;
  yesMint: string;
  noMint: string;
  /** The earliest expiry among resting orders (unix seconds), or Infinity. */
  nextExpiry: number;
}

/** What the matcher tells the world after each committed batch (book, trade, order and fill events). */
export interface MatcherEventSink {
  /** `views`: the batch's orders and fills as REST presents them once it committed. */
  committed(outcomes: readonly OpOutcome[], books: ReadonlyMap<string, OwnedMarket>, views: BatchViews): void;
}
