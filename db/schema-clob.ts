/** Kysely table types of Family C, the orderbook (migrations 0005, 0010, 0013); see db/schema.ts. */
import type { ColumnType, Generated } from 'kysely';
import type { BigCol, Int } from './column-types.js';

/** The orderbook terms of a catalog market (`markets.kind = 'clob'`). */
export interface ClobMarketsTable {
  market_id: string;
  market_pubkey: string;
  vault: string;
  resolution_rules: string;
  image_url: string;
  lookup_table: string | null;
  setup_outbound_id: string | null;
  /** Slot of the last indexed read of the market account (0 before the first). */
  slot: BigCol;
  /** Fencing token of the matcher that owns the book: bumped on every takeover, checked by every write. */
  matcher_epoch: ColumnType<bigint, bigint | number | undefined, bigint | number>;
  matcher_node: string | null;
  /** Migration 0012: the smallest order quantity accepted, outcome-token raw units (default one token). */
  min_order_size: ColumnType<bigint, bigint | number | undefined, bigint | number>;
}

export interface ClobWalletsTable {
  owner: string;
  escrow: string;
  escrow_usdc: string;
  created_at: string;
}

export interface ClobOrdersTable {
  id: string;
  market_id: string;
  owner: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  price_bps: Int;
  quantity: BigCol;
  remaining: BigCol;
  /** The book's status: open, partially_filled, filled, cancelled (`settling` is derived on read). */
  status: 'open' | 'partially_filled' | 'filled' | 'cancelled';
  order_type: 'limit' | 'market';
  time_in_force: 'gtc' | 'ioc' | 'fok';
  post_only: Int;
  /** u64 as decimal text. */
  nonce: string;
  expiry: BigCol;
  /** The 92-byte order message, lowercase hex. */
  message: string;
  /** The owner's Ed25519 signature of the order text, base64. */
  signature: string;
  seq: BigCol;
  notional: BigCol;
  usdc: BigCol;
  committed: BigCol;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type ClobFillStatus = 'matched' | 'settling' | 'settled' | 'retrying' | 'failed' | 'failed_insufficient_balance';

export interface ClobFillsTable {
  id: string;
  market_id: string;
  seq: BigCol;
  maker_order_id: string;
  taker_order_id: string;
  maker_owner: string;
  taker_owner: string;
  taker_side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  price_bps: Int;
  maker_side: 'buy' | 'sell';
  maker_outcome: 'yes' | 'no';
  maker_price_bps: Int;
  fill_type: 'direct' | 'complementary' | 'sell_complementary';
  quantity: BigCol;
  usdc_amount: BigCol;
  maker_usdc: BigCol;
  taker_fee: BigCol;
  maker_rebate: BigCol;
  protocol_fee: BigCol;
  rounding_dust: BigCol;
  status: ClobFillStatus;
  retry_count: Int;
  failure_reason: string | null;
  batch_id: string | null;
  settle_tx: string | null;
  positions_applied: Int;
  matched_at: string;
  settled_at: string | null;
  updated_at: string;
  /** Migration 0010: a failed fill's quantity given back to the innocent party's resting order. */
  give_back: Generated<ClobGiveBack | null>;
  give_back_order_id: Generated<string | null>;
  /** Migration 0014: what the price candles count of this fill (0 not seen yet, 1 counted, 2 left out: failed). */
  candle_state: ColumnType<number, number | undefined, number>;
}

export type ClobGiveBack = 'pending' | 'restored' | 'not_resting' | 'not_covered';

export interface ClobOwnerHoldsTable {
  owner: string;
  market_id: string;
  usdc: BigCol;
  yes_tokens: BigCol;
  no_tokens: BigCol;
}

export interface ClobSettlementBatchesTable {
  id: string;
  market_id: string;
  outbound_id: string;
  status: 'pending' | 'settled' | 'failed';
  fill_count: Int;
  created_at: string;
  updated_at: string;
}

export interface ClobBatchFillsTable {
  batch_id: string;
  fill_id: string;
  position: Int;
}

export interface ClobPositionsTable {
  id: string;
  market_id: string;
  owner: string;
  outcome: 'yes' | 'no';
  net_quantity: BigCol;
  total_cost: BigCol;
  total_proceeds: BigCol;
  total_fees: BigCol;
  realized_pnl: BigCol;
  updated_at: string;
}

/** Cancel-all proofs already used (migration 0013): each works once within its window. */
export interface ClobCancelAllUsesTable {
  owner: string;
  /** The market as the owner signed it: a market id, a slug or `*`. */
  market_ref: string;
  /** The proof's unix seconds. */
  signed_at: BigCol;
  used_at: string;
}

/** Price candles (migration 0014): prices in YES bps, open/close by fill seq. */
export interface ClobPriceCandlesTable {
  market_id: string;
  interval_seconds: Int;
  start_unix: BigCol;
  open_bps: Int;
  high_bps: Int;
  low_bps: Int;
  close_bps: Int;
  volume: BigCol;
  open_seq: BigCol;
  close_seq: BigCol;
  fills: Int;
}

/** The dead-man's switch of one owner (migration 0023). */
export interface ClobHeartbeatsTable {
  owner: string;
  /** The last accepted heartbeat's signed unix seconds. */
  signed_at: BigCol;
  timeout_sec: Int;
  /** When the owner's resting orders are cancelled unless a newer heartbeat comes (unix ms); null: disarmed or fired. */
  deadline_ms: ColumnType<bigint | null, bigint | number | null, bigint | number | null>;
  updated_at: string;
}
