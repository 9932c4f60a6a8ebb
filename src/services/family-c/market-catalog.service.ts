/**
 * Orderbook market reads: one market by UUID or slug, and the filtered list with a keyset cursor.
 * Markets still `creating` (their account not yet on chain) are not shown.
 */
import {
  findClobMarketById,
  findClobMarketBySlug,
  listAllClobMarkets,
  listClobMarkets,
  type ClobMarketRow,
  activeClobMarketIds,
} from '../../../db/repositories/clob-markets.repository.js';
import { DomainError } from '../../domain/errors.js';
import type { FamilyCContext } from './context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PUBLIC_STATUSES = ['active', 'paused', 'resolved'] as const;

export async function findClobMarket(ctx: Pick<FamilyCContext, 'db'>, idOrSlug: string): Promise<ClobMarketRow | undefined> {
  return UUID.test(idOrSlug) ? findClobMarketById(ctx.db, idOrSlug.toLowerCase()) : findClobMarketBySlug(ctx.db, idOrSlug);
}

/** The market, or 404 MARKET_NOT_FOUND (also for one still being created). */
export async function requireClobMarket(ctx: Pick<FamilyCContext, 'db'>, idOrSlug: string): Promise<ClobMarketRow> {
  const market = await findClobMarket(ctx, idOrSlug);
  if (!market || market.status === 'creating') throw new DomainError('not_found', 'MARKET_NOT_FOUND', `No orderbook market ${idOrSlug}`);
  return market;
}

export interface MarketPage {
  markets: ClobMarketRow[];
  nextCursor: string | null;
}

function encodeCursor(row: ClobMarketRow): string {
  return Buffer.from(`${row.created_at}|${row.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)) || !UUID.test(id)) {
    throw new DomainError('invalid', 'INVALID_CURSOR', 'cursor is not one this API returned (pass nextCursor unchanged)');
  }
  return { createdAt, id };
}

export async function listMarketsPage(
  ctx: Pick<FamilyCContext, 'db'>,
  q: { status?: string; category?: string; limit: number; cursor?: string },
): Promise<MarketPage> {
  const statuses = q.status ? [q.status] : [...PUBLIC_STATUSES];
  const rows = await listClobMarkets(
    ctx.db,
    { statuses, category: q.category, after: q.cursor ? decodeCursor(q.cursor) : undefined },
    q.limit + 1,
  );
  const page = rows.slice(0, q.limit);
  return { markets: page, nextCursor: rows.length > q.limit ? encodeCursor(page[page.length - 1]!) : null };
}

/** Markets a matcher must serve: every orderbook market whose account exists (resolved books still cancel). */
export async function matchableMarketIds(ctx: Pick<FamilyCContext, 'db'>): Promise<string[]> {
  return (await listAllClobMarkets(ctx.db)).filter((m) => m.status !== 'creating').map((m) => m.id);
}

/** The markets that trade now: /ready checks each has a live matcher (matcher-coverage.ts). */
export async function activeMarketIds(ctx: Pick<FamilyCContext, 'db'>): Promise<string[]> {
  return activeClobMarketIds(ctx.db);
}

/** A resolved market's outcome in Family C's lowercase form (null while unresolved or unknown). */
export async function marketOutcome(ctx: Pick<FamilyCContext, 'db'>, id: string): Promise<'yes' | 'no' | null> {
  const row = await findClobMarketById(ctx.db, id);
  return row?.outcome ? (row.outcome === 'YES' ? 'yes' : 'no') : null;
}

/** Every orderbook market, for the operators' page (newest first). */
export async function listAllMarketsForOperators(ctx: Pick<FamilyCContext, 'db'>): Promise<ClobMarketRow[]> {
  return (await listAllClobMarkets(ctx.db)).reverse();
}
