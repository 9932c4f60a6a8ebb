/** Family A reads: list, search, one market, its details. */
import {
  catalogVersion,
  countMarkets,
  findMarketBySlug,
  listMarkets,
  ordersByRowid,
  type MarketFilter,
  type MarketPosition,
  type MarketRow,
} from '../../../db/repositories/family-a-markets.repository.js';
import { keptIndexValue } from '../../../db/read-answers.js';
import { DomainError } from '../../domain/errors.js';
import { searchTerms } from '../../domain/family-a/slug.js';
import { decodeCursor, encodeCursor } from './catalog-cursor.js';
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
  /** nextCursor of the previous page: continue after its last market (with offset 0). */
  cursor?: string;
}

/**
 * Pages and totals read at a catalog version (db trigger-maintained, migration 0009) are kept per
 * process and served while the version has not moved: one indexed read per request instead of
 * the page's and the total's queries (a 20-market page costs 0.5-1 ms of SQLite work at 100k
 * markets), and never stale, whichever process wrote. Bounded: emptied when full.
 */
const CACHE_MAX = 1_000;

interface Cached<T> {
  version: string;
  value: T;
}

export interface CatalogPage {
  markets: ReturnType<typeof presentSummary>[];
  count: number;
  limit: number;
  offset: number;
  hasMore: boolean;
  /** Pass as `cursor` for the page after this one; null on the last page. */
  nextCursor: string | null;
}

const caches = new WeakMap<FamilyADeps, { counts: Map<string, Cached<number>>; pages: Map<string, Cached<CatalogPage>> }>();

function cachesOf(deps: FamilyADeps): { counts: Map<string, Cached<number>>; pages: Map<string, Cached<CatalogPage>> } {
  let c = caches.get(deps);
  if (!c) caches.set(deps, (c = { counts: new Map(), pages: new Map() }));
  return c;
}

async function atVersion<T>(cache: Map<string, Cached<T>>, key: string, version: string, read: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit && hit.version === version) return hit.value;
  const value = await read();
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, { version, value });
  return value;
}

async function readPage(
  deps: FamilyADeps,
  filter: MarketFilter,
  query: ListQuery,
  after: MarketPosition | undefined,
  version: string,
): Promise<CatalogPage> {
  // One row more than the page tells whether another page follows.
  const [count, rows] = await Promise.all([
    atVersion(cachesOf(deps).counts, JSON.stringify(filter), version, () => countMarkets(deps.db, deps.dialect, filter)),
    listMarkets(deps.db, deps.dialect, filter, query.limit + 1, query.offset, after),
  ]);
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = page[page.length - 1];
  const nextCursor =
    hasMore && last
      ? encodeCursor(ordersByRowid(deps.dialect, filter) ? { rowid: Number(last.fts_rowid) } : { createdAt: last.created_at, id: last.id })
      : null;
  return { markets: page.map(presentSummary), count, limit: query.limit, offset: query.offset, hasMore, nextCursor };
}

export async function listCatalog(deps: FamilyADeps, query: ListQuery): Promise<CatalogPage> {
  const filter: MarketFilter = { creator: query.creator, published: query.published };
  if (query.status !== undefined) {
    const statuses = STATUS_FILTER[query.status];
    if (!statuses) throw new DomainError('invalid', 'VALIDATION_ERROR', 'status must be one of live, active, resolved, pending');
    filter.statuses = statuses;
  }
  if (query.q !== undefined && query.q.trim() !== '') {
    filter.terms = searchTerms(query.q);
    if (filter.terms.length === 0)
      return { markets: [], count: 0, limit: query.limit, offset: query.offset, hasMore: false, nextCursor: null };
  }
  let after: MarketPosition | undefined;
  if (query.cursor !== undefined) {
    if (query.offset !== 0)
      throw new DomainError(
        'invalid',
        'VALIDATION_ERROR',
        'cursor and offset exclude each other: a cursor already says where the page starts',
      );
    after = decodeCursor(query.cursor, ordersByRowid(deps.dialect, filter));
  }
  // Read before the page: a page read after a newer write is then merely kept under an older version.
  const version = await catalogVersion(deps.db);
  const key = JSON.stringify([filter, query.limit, query.offset, query.cursor ?? null]);
  return atVersion(cachesOf(deps).pages, key, version, () => readPage(deps, filter, query, after, version));
}

export async function requireMarket(deps: FamilyADeps, slug: string): Promise<MarketRow> {
  const market = await findMarketBySlug(deps.db, slug);
  if (!market) throw new DomainError('not_found', 'MARKET_NOT_FOUND', `Market ${slug} not found`, { marketSlug: slug });
  return market;
}

/** A market Family A can trade: ours (option wallets exist) and live. */
export async function requireTradable(
  deps: FamilyADeps,
  slug: string,
): Promise<MarketRow & { yes_wallet: string; no_wallet: string; yes_mint: string; no_mint: string }> {
  const m = await requireMarket(deps, slug);
  if (m.kind !== 'x402' || !m.yes_wallet || !m.no_wallet || !m.yes_mint || !m.no_mint) {
    throw new DomainError(
      'invalid',
      'VALIDATION_ERROR',
      `Market ${slug} is not an x402 market; trade it through /v2/markets/{id} (Family B)`,
      { marketSlug: slug },
    );
  }
  if (m.status !== 'live' && m.status !== 'active') {
    throw new DomainError('conflict', 'MARKET_NOT_ACTIVE', `Market ${slug} is ${m.status}; trading needs a live market`, {
      marketSlug: slug,
      marketStatus: m.status,
    });
  }
  return m as MarketRow & { yes_wallet: string; no_wallet: string; yes_mint: string; no_mint: string };
}

export async function marketSummary(deps: FamilyADeps, slug: string) {
  return presentSummary(await requireMarket(deps, slug));
}

export async function marketDetails(deps: FamilyADeps, slug: string) {
  return presentDetails(await requireMarket(deps, slug));
}

/**
 * `owner`'s kept answer under `key`, or `make()` kept, while no connection commits: for the slug
 * summary and the catalog pages, made from the index alone (no chain, no clock). Undefined
 * without the read-only connection (db/read-answers.ts `keptIndexValue`).
 */
export const keptAnswer = <T>(deps: FamilyADeps, owner: object, key: string, make: () => Promise<T>) =>
  keptIndexValue(deps.db, owner, key, make);
