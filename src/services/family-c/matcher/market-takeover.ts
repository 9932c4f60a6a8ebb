/**
 * A matcher taking markets over (a lease round's worth): their new fencing epochs in one commit
 * (one fsync on SQLite for the round, not one per market: a restart reclaiming thousands of
 * markets), then each book as the database holds it — read after the bump, so that nothing the
 * old holder could still write is missing from it.
 */
import type { Kysely } from 'kysely';
import { bumpMatcherEpochs, findClobMarketById } from '../../../../db/repositories/clob-markets.repository.js';
import type { Database } from '../../../../db/schema.js';
import { parseBookMarketStatus, type FeeConfig } from '../../../domain/orderbook/index.js';
import { loadBook } from './book-loader.js';
import type { OwnedMarket } from './matcher-types.js';

export interface TakeoverDeps {
  db: Kysely<Database>;
  nodeId: string;
  fees: FeeConfig;
}

/** The markets taken (to add to the matcher's own), and those that could not be, with why. */
export interface Takeover {
  owned: OwnedMarket[];
  failed: Map<string, Error>;
}

export async function takeOverMarkets(deps: TakeoverDeps, marketIds: Iterable<string>): Promise<Takeover> {
  const failed = new Map<string, Error>();
  const unknown = (marketId: string) => failed.set(marketId, new Error(`unknown orderbook market ${marketId}`));
  const rows = new Map<string, NonNullable<Awaited<ReturnType<typeof findClobMarketById>>>>();
  for (const marketId of new Set(marketIds)) {
    const row = await findClobMarketById(deps.db, marketId);
    if (row) rows.set(marketId, row);
    else unknown(marketId);
  }
  if (rows.size === 0) return { owned: [], failed };
  // The epochs our own bump wrote, not a later read: another node's bump may land in between.
  const epochs = await bumpMatcherEpochs(deps.db, [...rows.keys()], deps.nodeId);
  const owned: OwnedMarket[] = [];
  for (const [marketId, row] of rows) {
    const epoch = epochs.get(marketId);
    if (epoch === undefined) {
      unknown(marketId);
      continue;
    }
    try {
      const book = await loadBook(deps.db, marketId, deps.fees);
      owned.push({
        marketId,
        book,
        epoch,
        status: parseBookMarketStatus(row.status),
        yesMint: row.yes_mint!,
        noMint: row.no_mint!,
        nextExpiry: book.earliestExpiry(),
      });
    } catch (error) {
      failed.set(marketId, error as Error);
    }
  }
  return { owned, failed };
}

/** Reloads an owned market's book and status from the database (after a batch that failed to commit). */
export async function reloadMarket(deps: TakeoverDeps, market: OwnedMarket): Promise<void> {
  const row = await findClobMarketById(deps.db, market.marketId);
  if (!row) throw new Error(`orderbook market ${market.marketId} is gone`);
  market.book = await loadBook(deps.db, market.marketId, deps.fees);
  market.status = parseBookMarketStatus(row.status);
  market.nextExpiry = market.book.earliestExpiry(); // a failed expiry sweep had moved it past the restored orders
}
