/**
 * An owner's fills (as maker or taker), newest first: each side walks its own index and the two
 * are merged, so a page costs two bounded index reads whatever the owner's history.
 */
import { findFill, listOwnerFillsAs } from '../../../db/repositories/clob-fills.repository.js';
import { DomainError } from '../../domain/errors.js';
import { parsePubkey, type FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';
import { presentFill } from './orders/order.presenter.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decodeCursor(cursor: string): { matchedAt: string; id: string } {
  const [matchedAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!matchedAt || !id || Number.isNaN(Date.parse(matchedAt)) || !UUID.test(id))
    throw new DomainError('invalid', 'INVALID_CURSOR', 'cursor is not one this API returned (pass nextCursor unchanged)');
  return { matchedAt, id };
}

export async function listOwnerFills(ctx: FamilyCContext, q: { pubkey: string; marketId?: string; limit: number; cursor?: string }) {
  const owner = parsePubkey(q.pubkey).toBase58();
  const marketId = q.marketId ? (await requireClobMarket(ctx, q.marketId)).id : undefined;
  const filter = { owner, marketId, after: q.cursor ? decodeCursor(q.cursor) : undefined };
  const [asMaker, asTaker] = await Promise.all([
    listOwnerFillsAs(ctx.db, 'maker', filter, q.limit + 1),
    listOwnerFillsAs(ctx.db, 'taker', filter, q.limit + 1),
  ]);
  const byId = new Map([...asMaker, ...asTaker].map((f) => [f.id, f]));
  const merged = [...byId.values()].sort((a, b) =>
    a.matched_at === b.matched_at ? (a.id < b.id ? 1 : -1) : a.matched_at < b.matched_at ? 1 : -1,
  );
  const page = merged.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    fills: page.map(presentFill),
    nextCursor: merged.length > q.limit && last ? Buffer.from(`${last.matched_at}|${last.id}`, 'utf8').toString('base64url') : null,
  };
}

export async function getFill(ctx: FamilyCContext, id: string) {
  const row = UUID.test(id) ? await findFill(ctx.db, id.toLowerCase()) : undefined;
  if (!row) throw new DomainError('not_found', 'FILL_NOT_FOUND', `No fill ${id}`);
  return { fill: presentFill(row) };
}
