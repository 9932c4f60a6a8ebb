/**
 * Market references (UUID or slug) to UUIDs for WebSocket subscriptions. A market's UUID and slug
 * never change, so found ones are cached (bounded, oldest dropped first); unknown ones are not,
 * a market created a second later must be found (the per-connection rate limit bounds lookups).
 * A reference that cannot be stored (NUL, lone surrogate) is unknown without a query.
 */
import type { FamilyCContext } from '../../services/family-c/context.js';
import { findClobMarket } from '../../services/family-c/market-catalog.service.js';
import { unstorable } from '../storable-text.js';

export function marketResolver(ctx: Pick<FamilyCContext, 'db'>, capacity = 10_000) {
  const cache = new Map<string, string>();
  const one = async (ref: string): Promise<string | null> => {
    const hit = cache.get(ref);
    if (hit) return hit;
    // A WebSocket frame bypasses the HTTP guard (storable-text.ts): text no market can be named by
    // (NUL, a lone surrogate) is an unknown market, not a query PostgreSQL refuses.
    if (unstorable(ref)) return null;
    const row = await findClobMarket(ctx, ref);
    if (!row || row.status === 'creating') return null;
    if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
    cache.set(ref, row.id);
    return row.id;
  };
  return (refs: readonly string[]): Promise<Array<string | null>> => Promise.all(refs.map(one));
}
