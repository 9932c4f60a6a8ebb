/**
 * Kysely table types. Columns added by a migration are declared here in the same commit.
 * Integer columns are `bigint` where they carry money or on-chain u64 values, `number` otherwise;
 * booleans are 0/1 integers (see codec.ts). Timestamps are ISO 8601 text unless named `*_unix`.
 */
import type { ColumnType, Generated } from 'kysely';

type Int = ColumnType<number, number, number>;

export interface DaemonNodesTable {
  node_id: string;
  roles: string;
  hostname: string;
  pid: Int;
  version: string;
  started_at: string;
  last_beat_at: string;
  beats: ColumnType<bigint, bigint | number, bigint | number>;
}

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

type BigCol = ColumnType<bigint, bigint | number, bigint | number>;

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
  outbound_transactions: OutboundTransactionsTable;
  family_a_payments: FamilyAPaymentsTable;
  family_a_claims: FamilyAClaimsTable;
  api_keys: ApiKeysTable;
}

export type { Generated };
