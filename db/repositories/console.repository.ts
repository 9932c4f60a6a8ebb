/**
 * The operator console's cross-family reads (one query per function): markets by family and
 * status, and per orderbook market its resting orders, best prices, fills per status and oldest
 * unsettled fill — each one grouped query over indexed columns, whatever the number of markets.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../schema.js';
import { isRestingStatus } from './clob-orders.repository.js';

export async function countMarketsByKindAndStatus(db: Kysely<Database>) {
  return db
    .selectFrom('markets')
    .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['kind', 'status'])
    .execute();
}

export interface ConsoleMarketFilter {
  kind?: 'amm' | 'pool' | 'x402' | 'clob';
  status?: string;
  /** Substring of the slug or name. */
  search?: string;
}

export async function listConsoleMarkets(db: Kysely<Database>, filter: ConsoleMarketFilter, limit: number) {
  let query = db
    .selectFrom('markets as m')
    .leftJoin('clob_markets as c', 'c.market_id', 'm.id')
    .select([
      'm.id',
      'm.slug',
      'm.kind',
      'm.name',
      'm.status',
      'm.outcome',
      'm.chain_market_id',
      'm.created_at',
      'c.matcher_node',
      'c.matcher_epoch',
    ]);
  if (filter.kind) query = query.where('m.kind', '=', filter.kind);
  if (filter.status) query = query.where('m.status', '=', filter.status);
  if (filter.search) {
    const like = `%${filter.search.replace(/[%_\\]/g, '')}%`;
    query = query.where((eb) => eb.or([eb('m.slug', 'like', like), eb('m.name', 'like', like)]));
  }
  return query.orderBy('m.created_at', 'desc').limit(limit).execute();
}

/** Resting orders per market, outcome and side, with the best price of each (bids: highest; asks: lowest). */
export async function restingByMarket(db: Kysely<Database>, marketIds: string[]) {
  if (marketIds.length === 0) return [];
  return db
    .selectFrom('clob_orders')
    .select([
      'market_id',
      'outcome',
      'side',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.max('price_bps').as('max_price'),
      (eb) => eb.fn.min('price_bps').as('min_price'),
    ])
    .where('market_id', 'in', marketIds)
    .where(isRestingStatus) // inline, for 0026's partial index of resting orders by market
    .groupBy(['market_id', 'outcome', 'side'])
    .execute();
}

/** Fills per market and status, with the oldest `matched_at` of each, and the volume (USDC raw) of each. */
export async function fillsByMarket(db: Kysely<Database>, marketIds: string[]) {
  if (marketIds.length === 0) return [];
  return db
    .selectFrom('clob_fills')
    .select([
      'market_id',
      'status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.min('matched_at').as('oldest'),
      sql<string>`sum(usdc_amount)`.as('volume'),
    ])
    .where('market_id', 'in', marketIds)
    .groupBy(['market_id', 'status'])
    .execute();
}

/** One market's settlement batches in flight, with their transaction's signature, attempts and age. */
export async function batchesInFlight(db: Kysely<Database>, marketId: string) {
  return db
    .selectFrom('clob_settlement_batches as b')
    .innerJoin('outbound_transactions as o', 'o.id', 'b.outbound_id')
    .select(['b.id', 'b.fill_count', 'b.created_at', 'o.status as outbound_status', 'o.signature', 'o.attempts', 'o.last_error'])
    .where('b.market_id', '=', marketId)
    .where('b.status', '=', 'pending')
    .orderBy('b.created_at')
    .limit(100)
    .execute();
}

/** One market's fills not settled and matched before `before` (the stuck list), oldest first. */
export async function stuckFills(db: Kysely<Database>, marketId: string, before: string, limit: number) {
  return db
    .selectFrom('clob_fills')
    .select(['id', 'status', 'fill_type', 'quantity', 'price_bps', 'outcome', 'retry_count', 'failure_reason', 'matched_at', 'batch_id'])
    .where('market_id', '=', marketId)
    .where('status', 'in', ['matched', 'settling', 'retrying', 'failed', 'failed_insufficient_balance'])
    .where('matched_at', '<', before)
    .orderBy('matched_at')
    .limit(limit)
    .execute();
}

/** The ids of a market's resting orders (an operator's cancel-all). */
export async function restingOrderIds(db: Kysely<Database>, marketId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('clob_orders')
    .select('id')
    .where('market_id', '=', marketId)
    .where(isRestingStatus) // inline, for 0026's partial index of resting orders by market
    .execute();
  return rows.map((r) => r.id);
}
