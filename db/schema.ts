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

export interface Database {
  daemon_nodes: DaemonNodesTable;
  markets: MarketsTable;
}

export type { Generated };
