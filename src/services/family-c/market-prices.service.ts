/**
 * `GET /v2/clob/prices`: best bid, best ask, mid, spread and last price per outcome for up to 100
 * markets in one request (a market maker's poll). One database query names the markets; their
 * tops come from the book reads the market routes use (this node's committed mirrors, the other
 * matchers' heads in one Redis round trip), never from orders or fills.
 *
 * The list: comma-separated UUIDs or slugs, at most 100 entries as sent; a market named twice (or
 * by UUID and by slug) is answered once, where it is first named. Refs that name no market (or one
 * still being created) are listed in `notFound` as sent; they are not an error.
 */
import { findClobMarketsByRefs, type ClobMarketRow } from '../../../db/repositories/clob-markets.repository.js';
import { DomainError } from '../../domain/errors.js';
import { isValidSlug } from '../../domain/family-a/slug.js';
import { quoteOf } from '../../domain/orderbook/index.js';
import type { BookTopView } from './market.presenter.js';
import type { FamilyCContext } from './context.js';

export const MAX_MARKET_IDS = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ManyTops {
  tops(marketIds: readonly string[]): Promise<BookTopView[]>;
}

/** The refs of a `marketIds` list, first mention kept; 400 INVALID_MARKET_IDS for an empty, malformed or too long list. */
export function parseMarketIds(raw: string): string[] {
  const refs = raw.split(',');
  if (refs.length > MAX_MARKET_IDS)
    throw new DomainError('invalid', 'INVALID_MARKET_IDS', `marketIds lists ${refs.length} markets; at most ${MAX_MARKET_IDS}`);
  const bad = refs.find((r) => !UUID.test(r) && !isValidSlug(r));
  if (bad !== undefined)
    throw new DomainError(
      'invalid',
      'INVALID_MARKET_IDS',
      bad === ''
        ? 'marketIds has an empty entry (ids are separated by single commas)'
        : `marketIds: "${bad.slice(0, 80)}" is neither a market UUID nor a slug`,
    );
  return [...new Set(refs.map((r) => (UUID.test(r) ? r.toLowerCase() : r)))];
}

export async function marketPrices(ctx: Pick<FamilyCContext, 'db'>, reads: ManyTops, raw: string) {
  const refs = parseMarketIds(raw);
  const rows = await findClobMarketsByRefs(
    ctx.db,
    refs.filter((r) => UUID.test(r)),
    refs.filter((r) => !UUID.test(r)),
  );
  const byRef = new Map<string, ClobMarketRow>();
  for (const m of rows) {
    if (m.status === 'creating') continue;
    byRef.set(m.id, m);
    byRef.set(m.slug, m);
  }
  const markets: ClobMarketRow[] = [];
  const notFound: string[] = [];
  for (const ref of refs) {
    const m = byRef.get(ref);
    if (!m) notFound.push(ref);
    else if (!markets.includes(m)) markets.push(m);
  }
  const tops = await reads.tops(markets.map((m) => m.id));
  return { prices: markets.map((m, i) => ({ id: m.id, marketId: m.slug, ...quoteOf(tops[i]!) })), notFound };
}
