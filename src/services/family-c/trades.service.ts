/** A market's trades (its fills, newest first, by the (market_id, seq) key), paged by fill sequence. */
import { listMarketFills } from '../../../db/repositories/clob-fills.repository.js';
import { DomainError } from '../../domain/errors.js';
import type { FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';
import { presentFill } from './orders/order.presenter.js';

export async function listTrades(ctx: FamilyCContext, marketRef: string, limit: number, cursor?: string) {
  const market = await requireClobMarket(ctx, marketRef);
  let before: bigint | undefined;
  if (cursor !== undefined) {
    if (!/^[1-9][0-9]{0,15}$/.test(cursor))
      throw new DomainError('invalid', 'INVALID_CURSOR', 'cursor is not one this API returned (pass nextCursor unchanged)');
    before = BigInt(cursor);
  }
  const rows = await listMarketFills(ctx.db, market.id, limit + 1, before);
  const page = rows.slice(0, limit);
  const trades = page.map(presentFill);
  const last = page[page.length - 1];
  return { trades, nextCursor: rows.length > limit && last ? String(last.seq) : null };
}
