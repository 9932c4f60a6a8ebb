/** Market rows → Family A JSON (summary for lists, details per the public reference). */
import { json } from '../../../db/codec.js';
import type { MarketRow } from '../../../db/repositories/family-a-markets.repository.js';
import { rawToHuman } from '../../domain/family-a/money.js';

function imageList(value: string): string[] {
  const parsed = json<unknown>(value, []);
  if (Array.isArray(parsed)) return parsed.filter((v): v is string => typeof v === 'string');
  if (parsed && typeof parsed === 'object') return Object.values(parsed).filter((v): v is string => typeof v === 'string');
  return [];
}

/** Family A statuses: `live` for Family A markets, Family B's `active` passes through unchanged. */
export function presentSummary(m: MarketRow) {
  return {
    slug: m.slug,
    name: m.name,
    description: m.description,
    status: m.status,
    endDate: m.end_date ?? '',
    createdAt: m.created_at,
    tags: json<string[]>(m.tags, []),
    imageUrls: imageList(m.image_urls),
    category: m.category,
    paid: Number(m.published) === 1,
    resolved: m.status === 'resolved',
  };
}

export function presentDetails(m: MarketRow) {
  return {
    ...presentSummary(m),
    kind: m.kind,
    outcome: m.outcome === 'YES' ? 'Yes' : m.outcome === 'NO' ? 'No' : null,
    // The market's tickers (first YES, second NO); markets without their own tickers keep Yes/No.
    options: m.yes_ticker === 'YES' && m.no_ticker === 'NO' ? ['Yes', 'No'] : [m.yes_ticker, m.no_ticker],
    yesTicker: m.yes_ticker,
    noTicker: m.no_ticker,
    resolvedAt: m.resolved_at,
    creator: m.creator,
    cas: { Yes: m.yes_mint, No: m.no_mint },
    metadata: {
      target_price: m.target_price_raw === null ? null : rawToHuman(BigInt(m.target_price_raw)),
      market_limit: m.market_limit === null ? null : Number(m.market_limit),
      option_wallets: m.yes_wallet ? { Yes: m.yes_wallet, No: m.no_wallet } : null,
      chain_market_id: m.chain_market_id === null ? null : Number(m.chain_market_id),
    },
  };
}
