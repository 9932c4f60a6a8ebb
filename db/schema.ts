/**
 * Kysely table types (Family C, the orderbook, in schema-clob.ts; daemon nodes in
 * schema-daemon.ts). Columns added by a migration are declared in the same commit.
 * Integer columns are `bigint` where they carry money or on-chain u64 values, `number` otherwise;
 * booleans are 0/1 integers (see codec.ts). Timestamps are ISO 8601 text unless named `*_unix`.
 */
import type { ColumnType, Generated } from 'kysely';
import type { BigCol, Int } from './column-types.js';
import type {
  ClobBatchFillsTable,
  ClobCancelAllUsesTable,
  ClobFillsTable,
  ClobHeartbeatsTable,
  ClobMarketsTable,
  ClobOrdersTable,
  ClobOwnerHoldsTable,
  ClobPositionsTable,
  ClobPriceCandlesTable,
  ClobSettlementBatchesTable,
  ClobWalletsTable,
} from './schema-clob.js';
import type { ConsoleSamplesTable, OperatorAuditTable, OperatorSessionsTable, OperatorsTable } from './schema-console.js';
import type { DaemonNodesTable } from './schema-daemon.js';

export type * from './schema-clob.js';
export type * from './schema-console.js';
export type * from './schema-daemon.js';

/**
 * The market catalog shared by the families: every market has a UUID (Family C addresses it),
 * a unique slug (Family A), and, for markets of the on-chain market program, the integer
 * `chain_market_id` (Family B).
 */
export interface MarketsTable {
  id: string;
  slug: string;
  kind: 'amm' | 'pool' | 'x402' | 'clob';
  chain_market_id: ColumnType<bigint | null, bigint | number | null, bigint | number | null>;
  name: string;
  description: string;
  category: string;
  tags: string;
  image_urls: string;
  status: string;
  outcome: 'YES' | 'NO' | null;
  creator: string | null;
  yes_ticker: string;
  no_ticker: string;
  yes_mint: string | null;
  no_mint: string | null;
  end_date: string | null;
  resolved_at: string | null;
  published: Int;
  created_at: string;
  updated_at: string;
}

/** Family B: a market program account as last indexed (`data` is the account's bytes, base64). */
export interface ChainMarketsTable {
  market_id: BigCol;
  address: string;
  creator: string;
  status: string;
  mode: string;
  yes_mint: string;
  no_mint: string;
  data: string;
  slot: BigCol;
  updated_at: string;
}

/** An SPL token account of an indexed outcome mint. */
export interface TokenAccountsTable {
  address: string;
  mint: string;
  owner: string;
  amount: BigCol;
  slot: BigCol;
  updated_at: string;
}

export interface MarketIdReservationsTable {
  market_id: BigCol;
  creator: string;
  reserved_at: string;
}

// ---- Family A (0002) ----

/** Family A's per-market terms: price, payout limit and the two option wallets. */
export interface FamilyAMarketsTable {
  market_id: string;
  /** Raw USDC (6 decimals) per whole outcome token: 500 = 0.0005 USDC. */
  target_price_raw: ColumnType<bigint, bigint | number, bigint | number>;
  market_limit: ColumnType<bigint, bigint | number, bigint | number>;
  yes_wallet: string;
  no_wallet: string;
  creation_fee_usdc_raw: ColumnType<bigint, bigint | number, bigint | number>;
  creation_fee_lamports: ColumnType<bigint, bigint | number, bigint | number>;
  payment_deadline: string | null;
}

export interface FamilyAQuotesTable {
  id: string;
  market_id: string;
  wallet: string;
  side: 'YES' | 'NO';
  kind: 'buy' | 'sell';
  /** buy: raw USDC to pay; sell: raw outcome tokens to transfer. */
  amount_raw: ColumnType<bigint, bigint | number, bigint | number>;
  issued_at: string;
  expires_at: string;
  /** USDC a standard (x402 v2) buy adds for opening the buyer's outcome-token account; 0 otherwise. */
  account_fee_raw: ColumnType<bigint, bigint | number | undefined, bigint | number>;
}

export type X402PaymentState = 'sent' | 'honoured' | 'refused' | 'failed' | 'expired' | 'rejected';

/** A standard x402 v2 payment the fee payer co-signed, recorded before it was sent (migration 0015). */
export interface FamilyAX402PaymentsTable {
  /** The fee payer's signature: the transaction id, and the idempotency key of a replayed PAYMENT-SIGNATURE. */
  signature: string;
  kind: 'buy' | 'sell';
  quote_id: string;
  market_id: string;
  slug: string;
  side: 'YES' | 'NO';
  /** The transfer's authority: the wallet the quote was issued to. */
  payer: string;
  /** The wallet whose associated token account the payment credits (the quote's option wallet). */
  pay_to: string;
  /** buy: raw USDC bought with (the account fee excluded); sell: raw outcome tokens sold. */
  amount_raw: ColumnType<bigint, bigint | number, bigint | number>;
  account_fee_raw: ColumnType<bigint, bigint | number, bigint | number>;
  quote_issued_at: string;
  /** The fully signed wire transaction, base64: resent as is until it lands or its blockhash expires. */
  transaction: string;
  blockhash: string;
  state: X402PaymentState;
  /** The final answer (JSON: HTTP status, body, PAYMENT-RESPONSE), replayed to a repeated PAYMENT-SIGNATURE. */
  answer: string | null;
  created_at: string;
  updated_at: string;
}

/** Persisted outbound platform transactions, shared by every family (see src/services/outbound). */
export interface OutboundTransactionsTable {
  id: string;
  idempotency_key: string;
  purpose: string;
  params: string;
  status: 'pending' | 'sent' | 'confirmed' | 'failed';
  signature: string | null;
  raw_tx: string | null;
  blockhash: string | null;
  last_valid_block_height: ColumnType<bigint | null, bigint | number | null, bigint | number | null>;
  attempts: Int;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  // ---- 0004: waiting for funds (a payout a platform wallet cannot cover yet) ----
  /** When the current wait for funds began; null when not waiting. */
  awaiting_funds_since: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON {asset, missingRaw, wallets} of the last funding check that came up short. */
  shortfall: ColumnType<string | null, string | null | undefined, string | null>;
  /** The resume scan leaves the row alone until then (backoff between funding checks). */
  next_attempt_at: ColumnType<string | null, string | null | undefined, string | null>;
  funding_checks: ColumnType<number, number | undefined, number>;
}

/** Every honoured transfer (buy payment, sell transfer, claim transfer, creation fee); signature unique. */
export interface FamilyAPaymentsTable {
  id: string;
  signature: string;
  kind: 'buy' | 'sell' | 'claim' | 'create';
  market_id: string;
  wallet: string;
  side: 'YES' | 'NO' | null;
  paid_raw: ColumnType<bigint, bigint | number, bigint | number>;
  deliver_raw: ColumnType<bigint, bigint | number, bigint | number>;
  quote_id: string | null;
  outbound_id: string | null;
  created_at: string;
}

export interface FamilyAClaimsTable {
  id: string;
  market_id: string;
  wallet: string;
  transfer_signature: string;
  token_amount_raw: ColumnType<bigint, bigint | number, bigint | number>;
  payout_raw: ColumnType<bigint, bigint | number, bigint | number>;
  outbound_id: string;
  claimed_at: string;
}

/**
 * 0004: every verified inbound transfer to a Family A platform wallet (one row per credited
 * account per transaction) and what became of it. `state`:
 *   held      not honoured yet, but a quote (or a pending creation) could still honour it; refunded
 *             after `refund_after` if nobody does;
 *   honoured  paid for a trade, a claim or a creation (`honoured_raw` = `amount_raw`);
 *   refunded  the rest (`amount_raw` − `honoured_raw`) is sent back to `sender_account` by the
 *             outbound transaction `outbound_id`;
 *   credited  winning tokens sent to the platform wallet without a complete claim: counted by the
 *             wallet's claim of that market;
 *   claimed   a credit a claim has paid for;
 *   manual    cannot be refunded automatically (no single sender): an operator decides.
 */
export interface FamilyAInboundTransfersTable {
  id: string;
  signature: string;
  transfer_index: Int;
  account: string;
  /** The mint, or 'SOL' for lamports. */
  asset: string;
  owner: string;
  amount_raw: ColumnType<bigint, bigint | number, bigint | number>;
  honoured_raw: ColumnType<bigint, bigint | number | undefined, bigint | number>;
  sender_account: string | null;
  sender_owner: string | null;
  market_id: string | null;
  state: 'held' | 'honoured' | 'refunded' | 'credited' | 'claimed' | 'manual';
  reason: string;
  refund_after: string | null;
  outbound_id: string | null;
  block_time: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  /** sha256 hex of the key; the key itself is shown once at creation and never stored. */
  key_hash: string;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface Database {
  daemon_nodes: DaemonNodesTable;
  markets: MarketsTable;
  chain_markets: ChainMarketsTable;
  token_accounts: TokenAccountsTable;
  market_id_reservations: MarketIdReservationsTable;
  family_a_markets: FamilyAMarketsTable;
  family_a_quotes: FamilyAQuotesTable;
  family_a_x402_payments: FamilyAX402PaymentsTable;
  operator_audit: OperatorAuditTable;
  console_samples: ConsoleSamplesTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  outbound_transactions: OutboundTransactionsTable;
  family_a_payments: FamilyAPaymentsTable;
  family_a_claims: FamilyAClaimsTable;
  family_a_inbound_transfers: FamilyAInboundTransfersTable;
  api_keys: ApiKeysTable;
  clob_markets: ClobMarketsTable;
  clob_wallets: ClobWalletsTable;
  clob_orders: ClobOrdersTable;
  clob_fills: ClobFillsTable;
  clob_owner_holds: ClobOwnerHoldsTable;
  clob_settlement_batches: ClobSettlementBatchesTable;
  clob_batch_fills: ClobBatchFillsTable;
  clob_positions: ClobPositionsTable;
  clob_cancel_all_uses: ClobCancelAllUsesTable;
  clob_price_candles: ClobPriceCandlesTable;
  clob_heartbeats: ClobHeartbeatsTable;
}

export type { Generated };
