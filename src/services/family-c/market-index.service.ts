/**
 * Orderbook markets' status follows the chain: the indexer reads the market account and writes
 * status, outcome and resolution time to the catalog row, stamped with the read's slot (an older
 * read never overwrites a newer one). A market whose account does not exist yet stays `creating`.
 */
import bs58 from 'bs58';
import {
  claimClobSlot,
  findClobMarketByPubkey,
  listAllClobMarkets,
  setClobCatalogStatus,
  type ClobMarketRow,
} from '../../../db/repositories/clob-markets.repository.js';
import type { AccountSnapshot, ProgramAccountFilter } from '../../chain/chain-client.js';
import { CLOB_MARKET_SIZE, type ClobMarketStatus, decodeClobMarket, EXCHANGE_ACCOUNT } from '@pmx/programs';
import type { FamilyCContext } from './context.js';

/** The exchange program's market accounts (not its config or smart wallets). */
export function clobMarketAccountFilters(): ProgramAccountFilter[] {
  return [{ dataSize: CLOB_MARKET_SIZE }, { memcmp: { offset: 0, bytes: bs58.encode(EXCHANGE_ACCOUNT.market) } }];
}

export type MarketChange = { marketId: string; status: ClobMarketStatus; previous: string };

/** Applies one read of a market account; returns the status change it made, if any. */
export async function applyClobMarketAccount(
  ctx: FamilyCContext,
  row: ClobMarketRow,
  account: AccountSnapshot | null,
): Promise<MarketChange | null> {
  if (!account) return null;
  let decoded;
  try {
    decoded = decodeClobMarket(account.data);
  } catch {
    ctx.log.warn({ market: row.id, address: row.market_pubkey }, 'orderbook market account does not decode');
    return null;
  }
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await claimClobSlot(trx, row.id, BigInt(account.slot)))) return null;
    const outcome = decoded.outcome === null ? null : decoded.outcome === 'yes' ? 'YES' : 'NO';
    const resolvedAt = decoded.resolvedAt > 0n ? new Date(Number(decoded.resolvedAt) * 1000).toISOString() : null;
    await setClobCatalogStatus(trx, row.id, { status: decoded.status, outcome, resolvedAt, now: new Date().toISOString() });
    return row.status === decoded.status ? null : { marketId: row.id, status: decoded.status, previous: row.status };
  });
}

/** A change notification for `address` (or an explicit refresh): re-read the account now. */
export async function refreshClobMarketByPubkey(ctx: FamilyCContext, address: string): Promise<MarketChange | null> {
  const row = await findClobMarketByPubkey(ctx.db, address);
  if (!row) return null; // not ours (or its catalog row is not written yet: the full pass catches it)
  return applyClobMarketAccount(ctx, row, await ctx.chain.getAccount(address));
}

/** Every orderbook market of the catalog, read in chunks of 100 accounts. */
export async function indexAllClobMarkets(ctx: FamilyCContext): Promise<{ markets: number; changes: MarketChange[] }> {
  const rows = await listAllClobMarkets(ctx.db);
  const changes: MarketChange[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    const accounts = await ctx.chain.getMultipleAccounts(chunk.map((r) => r.market_pubkey));
    for (const [k, row] of chunk.entries()) {
      const change = await applyClobMarketAccount(ctx, row, accounts[k] ?? null);
      if (change) changes.push(change);
    }
  }
  return { markets: rows.length, changes };
}
