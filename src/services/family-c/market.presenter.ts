/**
 * The spec's Orderbook market shape: `{market, bestBid, bestAsk, lastPrice}`. Prices are integer
 * basis points in each outcome's own terms; a side is null when that book side is empty (best bid
 * or ask) or when the outcome has never traded (last price). The mints and the vault are extra
 * fields a trader needs to read the chain directly.
 */
import type { ClobMarketRow } from '../../../db/repositories/clob-markets.repository.js';

export interface BookTopView {
  bestBid: { yes: number | null; no: number | null };
  bestAsk: { yes: number | null; no: number | null };
  lastPrice: { yes: number | null; no: number | null };
}

export const EMPTY_TOP: BookTopView = {
  bestBid: { yes: null, no: null },
  bestAsk: { yes: null, no: null },
  lastPrice: { yes: null, no: null },
};

export function presentMarketFields(m: ClobMarketRow) {
  return {
    id: m.id,
    marketId: m.slug,
    marketPubkey: m.market_pubkey,
    status: m.status,
    outcome: m.outcome === null ? null : (m.outcome.toLowerCase() as 'yes' | 'no'),
    title: m.name,
    description: m.description,
    resolutionRules: m.resolution_rules,
    category: m.category,
    endDate: m.end_date ?? '',
    imageUrl: m.image_url,
    yesTicker: m.yes_ticker,
    noTicker: m.no_ticker,
    creatorAddress: m.creator ?? '',
    yesMint: m.yes_mint ?? '',
    noMint: m.no_mint ?? '',
    vault: m.vault,
    minOrderSize: m.min_order_size.toString(),
    resolvedAt: m.resolved_at,
    createdAt: m.created_at,
    updatedAt: m.updated_at,
  };
}

export function presentMarket(m: ClobMarketRow, top: BookTopView = EMPTY_TOP) {
  return { market: presentMarketFields(m), ...top };
}

export type MarketView = ReturnType<typeof presentMarket>;
