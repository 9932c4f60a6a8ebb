/** Family A reads: list, search, one market, its details. */
import { countMarkets, findMarketBySlug, listMarkets, type MarketFilter, type MarketRow } from '../../../db/repositories/family-a-markets.repository.js';
import { DomainError } from '../../domain/errors.js';
import { searchTerms } from '../../domain/family-a/slug.js';
import type { FamilyADeps } from './family-a.deps.js';
import { presentDetails, presentSummary } from './market.presenter.js';

/** List filter values → stored statuses. `live` and `active` are one state seen by two families. */
const STATUS_FILTER: Record<string, string[]> = {
  live: ['live', 'active'],
  active: ['live', 'active'],
  resolved: ['resolved'],
  pending: ['pending', 'creating'],
  creating: ['creating'],
};

export interface ListQuery {
  status?: string;
  q?: string;
  creator?: string;
  published?: boolean;
  limit: number;
  offset: number;
}

/**
 * Totals per filter are cached for one second per process: under load the page query is the
 * only one that runs, and `count` may trail a brand-new market by at most a second.
 */
const COUNT_TTL_MS = 1_000;
const countCaches = new WeakMap<FamilyADeps, Map<string, { n: number; at: number }>>();

async function cachedCount(deps: FamilyADeps, filter: MarketFilter): Promise<number> {
  let counts = countCaches.get(deps);
  if (!counts) countCaches.set(deps, (counts = new Map()));
  const key = JSON.stringify(filter);
  const hit = counts.get(key);
  if (hit && Date.now() - hit.at < COUNT_TTL_MS) return hit.n;
  const n = await countMarkets(deps.db, deps.dialect, filter);
  if (counts.size > 1_000) counts.clear();
  counts.set(key, { n, at: Date.now() });
  return n;
}

export async function listCatalog(deps: FamilyADeps, query: ListQuery) {
  const filter: MarketFilter = { creator: query.creator, published: query.published };
  if (query.status !== undefined) {
    const statuses = STATUS_FILTER[query.status];
    if (!statuses) throw new DomainError('invalid', 'VALIDATION_ERROR', 'status must be one of live, active, resolved, pending');
    filter.statuses = statuses;
  }
  if (query.q !== undefined && query.q.trim() !== '') {
    filter.terms = searchTerms(query.q);
    if (filter.terms.length === 0) return { markets: [], count: 0, limit: query.limit, offset: query.offset, hasMore: false };
  }
  const [count, rows] = await Promise.all([
    cachedCount(deps, filter),
    listMarkets(deps.db, deps.dialect, filter, query.limit, query.offset),
  ]);
  return { markets: rows.map(presentSummary), count, limit: query.limit, offset: query.offset, hasMore: query.offset + rows.length < count };
}

export async function requireMarket(deps: FamilyADeps, slug: string): Promise<MarketRow> {
  const market = await findMarketBySlug(deps.db, slug);
  if (!market) throw new DomainError('not_found', 'MARKET_NOT_FOUND', `Market ${slug} not found`, { marketSlug: slug });
  return market;
}

/** A market Family A can trade: ours (option wallets exist) and live. */
export async function requireTradable(deps: FamilyADeps, slug: string): Promise<MarketRow & { yes_wallet: string; no_wallet: string; yes_mint: string; no_mint: string }> {
  const m = await requireMarket(deps, slug);
  if (m.kind !== 'x402' || !m.yes_wallet || !m.no_wallet || !m.yes_mint || !m.no_mint) {
    throw new DomainError('invalid', 'VALIDATION_ERROR', `Market ${slug} is not an x402 market; trade it through /v2/markets/{id} (Family B)`, { marketSlug: slug });
  }
  if (m.status !== 'live' && m.status !== 'active') {
    throw new DomainError('conflict', 'MARKET_NOT_ACTIVE', `Market ${slug} is ${m.status}; trading needs a live market`, { marketSlug: slug, marketStatus: m.status });
  }
  return m as MarketRow & { yes_wallet: string; no_wallet: string; yes_mint: string; no_mint: string };
}

export async function marketSummary(deps: FamilyADeps, slug: string) {
  return presentSummary(await requireMarket(deps, slug));
}

export async function marketDetails(deps: FamilyADeps, slug: string) {
  return presentDetails(await requireMarket(deps, slug));
}
